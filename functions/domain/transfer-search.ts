/**
 * What the dashboard's search looks in (GET /getQs?q=): a transfer's file names (with their
 * folders) and recipient addresses, lower-cased, one per line, stored on the transfer item as
 * `searchText`. Capped so a transfer of thousands of files stays a small item.
 */
export const SEARCH_TEXT_MAX_CHARS = 4000;

export function searchTextOf(
  files: readonly { fileName: string; itemPath?: string }[],
  recipients: readonly string[],
): string {
  const lines = [...recipients, ...files.map((f) => (f.itemPath ? `${f.itemPath}/${f.fileName}` : f.fileName))];
  let text = '';
  for (const line of lines) {
    const next = line.toLowerCase();
    if (text.length + next.length + 1 > SEARCH_TEXT_MAX_CHARS) break;
    text += `${next}\n`;
  }
  return text;
}

/** The search as it is matched against `searchText`: trimmed, lower-cased. */
export function normaliseSearch(q: string | undefined): string | undefined {
  const n = q?.trim().toLowerCase();
  return n ? n : undefined;
}

/** The first file's base name, as list rows show it. */
export function firstFileNameOf(files: readonly { fileName: string }[]): string {
  const name = files[0]?.fileName ?? '';
  return name.split(/[\\/]/u).pop() || name;
}
