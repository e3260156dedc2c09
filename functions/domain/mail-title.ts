/** What product mail calls a transfer: mail is translated, so it names the first file instead of the English 'n files'. */

export function baseName(name: string): string {
  return name.split(/[\\/]/u).pop() || name;
}

export function mailTitleOf(files: readonly { readonly fileName: string }[]): string {
  if (files.length === 0) return 'SendBridge';
  const first = baseName(files[0]!.fileName);
  return files.length === 1 ? first : `${first} (+${files.length - 1})`;
}
