/**
 * File-list rules of spec §5: guest upload filter and duplicate removal. Plain code without zod
 * (the send form runs it on the home page's first load); the input schema is in file-entry-schema.ts.
 */

// Characters that change how a name displays without being seen: C0/C1 controls, the bidi
// embeddings, overrides and isolates and their marks, zero-width spaces and joiners, the word
// joiner, the BOM and the soft hyphen. 'photo\u202Egpj.exe' shows as 'photoexe.jpg'.
const INVISIBLE = /[\p{Cc}\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/gu;
// NTFS alternate data streams: 'name::$DATA', 'name:stream:$DATA', 'name:Zone.Identifier'.
const STREAM_SUFFIX = /:(?:[^:/\\]*)(?::\$[A-Za-z_]+)?$/u;

/**
 * One path segment as we store it: Unicode NFC, invisible characters removed, an alternate
 * stream suffix cut, trailing dots and spaces dropped (Windows drops them on save, so
 * 'page.html. ' lands as page.html). May come back empty.
 */
export function normaliseSegment(raw: string): string {
  let name = raw.normalize('NFC').replace(INVISIBLE, '');
  if (/:\$[A-Za-z_]+$|:[^:]*:\$[A-Za-z_]+$/u.test(name) || /:Zone\.Identifier$/iu.test(name))
    name = name.replace(STREAM_SUFFIX, '');
  return name.replace(/[.\s]+$/u, '').trim();
}

/**
 * A relative path as we store it: split on / and \, each segment normalised, empty, '.' and
 * '..' segments dropped (a path never climbs out of its transfer), joined with '/'.
 */
export function normalisePath(raw: string): string {
  return raw
    .split(/[/\\]+/u)
    .map(normaliseSegment)
    .filter((seg) => seg !== '' && seg !== '.' && seg !== '..')
    .join('/');
}

/**
 * A file of a send as the server stores it (file-entry-schema.ts checks and normalises the
 * input): the name a segment, the path (when there is one) ending in that name.
 */
export interface FileEntry {
  fileName: string;
  /** bytes stored: an end-to-end encrypted file's sealed size (e2e-format.ts cipherSizeOf) */
  size: number;
  itemPath?: string;
  /** an end-to-end encrypted file: its salt and plaintext size (docs/e2e-format.md) */
  e2e?: { salt: string; plainSize: number };
}

export type RemovalReason = 'insecure' | 'copyright';

export interface FilterResult<F extends FileEntry> {
  kept: F[];
  removed: { file: F; reason: RemovalReason }[];
}

/**
 * Spec §5 names html, htm and exe; the rest are the same risks under other names: pages a
 * browser renders with script (xhtml, shtml, mhtml, hta) and files Windows runs on a
 * double-click (docs/decisions/, "What guests may not send").
 */
export const INSECURE_EXTENSIONS = [
  'html',
  'htm',
  'exe',
  'xhtml',
  'xht',
  'shtml',
  'mht',
  'mhtml',
  'hta',
  'scr',
  'com',
  'pif',
  'bat',
  'cmd',
  'msi',
  'vbs',
  'vbe',
  'jse',
  'wsf',
  'ps1',
  'lnk',
  'cpl',
] as const;
export const VIDEO_EXTENSIONS_CHECKED = ['mp4', 'mkv'] as const;
export const TORRENT_SITE_TAGS = ['yts', 'yify', 'rarbg', 'eztv', 'ettv', '1337x', 'tgx', 'torrentgalaxy'] as const;

/**
 * Lower-cased extension. Windows drops trailing dots and spaces from names, so 'page.html. '
 * would land as an .html file; they are stripped before reading the extension.
 */
export function extensionOf(fileName: string): string {
  const name = fileName.replace(/[.\s]+$/u, '');
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

// A tag counts only as a whole token: letters or digits on either side make it part of a word.
const TOKEN_START = '(?<![a-z0-9])';
const TOKEN_END = '(?![a-z0-9])';
const RELEASE_TAGS = ['1080p', '2160p', 'web[-. _]?rip', 'web[-. _]?dl', 's0[1-6](?:e\\d{1,3})?', ...TORRENT_SITE_TAGS];
const RELEASE_TAG_PATTERN = new RegExp(`${TOKEN_START}(?:${RELEASE_TAGS.join('|')})${TOKEN_END}`, 'iu');

export function hasPiratedReleaseTag(fileName: string): boolean {
  return RELEASE_TAG_PATTERN.test(fileName);
}

function removalReasonOfName(rawName: string): RemovalReason | null {
  const name = normaliseSegment(rawName);
  const ext = extensionOf(name);
  if ((INSECURE_EXTENSIONS as readonly string[]).includes(ext)) return 'insecure';
  if ((VIDEO_EXTENSIONS_CHECKED as readonly string[]).includes(ext) && hasPiratedReleaseTag(name)) return 'copyright';
  return null;
}

/**
 * Why a not-logged-in sender may not upload this file, or null: the rules run on the
 * normalised name and on the final name of its path, as the download and the ZIP would show them.
 */
export function guestRemovalReason(file: {
  readonly fileName: string;
  readonly itemPath?: string | undefined;
}): RemovalReason | null {
  const finalOfPath = file.itemPath === undefined ? undefined : normalisePath(file.itemPath).split('/').pop();
  return removalReasonOfName(file.fileName) ?? (finalOfPath ? removalReasonOfName(finalOfPath) : null);
}

/** Spec §5: for not-logged-in senders, insecure types and likely pirated videos are removed. */
export function filterGuestFiles<F extends FileEntry>(files: readonly F[]): FilterResult<F> {
  const result: FilterResult<F> = { kept: [], removed: [] };
  for (const file of files) {
    const reason = guestRemovalReason(file);
    if (reason) result.removed.push({ file, reason });
    else result.kept.push(file);
  }
  return result;
}

/**
 * The file lists a call can carry: a send's files and the send form's two kinds of recording;
 * a request upload and an added-files call carry `fileObjects` only.
 */
export const FILE_LISTS = ['fileObjects', 'recordedVideos', 'voiceMemo'] as const;
export type FileListField = (typeof FILE_LISTS)[number];
export type FileLists<F> = { readonly [K in FileListField]?: readonly F[] | undefined };

/** One file entry of a call, with where it sits in the body (`fileObjects.2`, `voiceMemo.0`). */
export interface LocatedFile<F> {
  readonly field: FileListField;
  readonly index: number;
  readonly file: F;
}

/**
 * Every file entry of a send, a request upload or an added-files call, whatever list it came
 * in: the rules that count, size or filter files run over this, so no kind of file skips one.
 */
export function fileEntriesOf<F>(call: FileLists<F>): LocatedFile<F>[] {
  return FILE_LISTS.flatMap((field) => (call[field] ?? []).map((file, index) => ({ field, index, file })));
}

/**
 * The entries of a call that a sender of `role` may not upload (spec §5: only for a
 * not-logged-in sender, the anon role), over every file list of the call.
 */
export function fileRuleViolations<F extends Pick<FileEntry, 'fileName' | 'itemPath'>>(
  role: string,
  call: FileLists<F>,
): (LocatedFile<F> & { readonly reason: RemovalReason })[] {
  if (role !== 'anon') return [];
  return fileEntriesOf(call).flatMap((entry) => {
    const reason = guestRemovalReason(entry.file);
    return reason ? [{ ...entry, reason }] : [];
  });
}

/** Applies the guest filter only where the spec does: the anon role. */
export function filterFilesForRole<F extends FileEntry>(role: string, files: readonly F[]): FilterResult<F> {
  return role === 'anon' ? filterGuestFiles(files) : { kept: [...files], removed: [] };
}

/** The identity used for duplicates: relative path when there is one, else the name. */
export function fileKey(file: Pick<FileEntry, 'fileName' | 'itemPath'>): string {
  return file.itemPath ? file.itemPath : file.fileName;
}

/** Drops files whose key is already in `existing` or earlier in `files`; first one wins. */
export function dedupeFiles<F extends FileEntry>(
  files: readonly F[],
  existing: readonly Pick<FileEntry, 'fileName' | 'itemPath'>[] = [],
): { kept: F[]; duplicates: F[] } {
  const seen = new Set(existing.map(fileKey));
  const kept: F[] = [];
  const duplicates: F[] = [];
  for (const file of files) {
    const key = fileKey(file);
    if (seen.has(key)) duplicates.push(file);
    else {
      seen.add(key);
      kept.push(file);
    }
  }
  return { kept, duplicates };
}

export function totalSize(files: readonly Pick<FileEntry, 'size'>[]): number {
  return files.reduce((sum, f) => sum + f.size, 0);
}
