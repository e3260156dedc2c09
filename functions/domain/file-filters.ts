/** File-list rules of spec §5: guest upload filter and duplicate removal. */
import * as z from 'zod/mini';

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
  if (/:\$[A-Za-z_]+$|:[^:]*:\$[A-Za-z_]+$/u.test(name) || /:Zone\.Identifier$/iu.test(name)) name = name.replace(STREAM_SUFFIX, '');
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
 * A file of a send, normalised once on the server at creation (only the normalised form is
 * stored): the name as a segment, the path as a path whose last segment is the name, so the
 * single download and the ZIP entry always carry the same checked name.
 */
export const fileEntryInputSchema = z.object({
  fileName: z.string().check(z.minLength(1), z.maxLength(1024)),
  size: z.number().check(z.int(), z.nonnegative()),
  itemPath: z.optional(z.string().check(z.maxLength(4096))),
});

export const fileEntrySchema = z.pipe(
  fileEntryInputSchema,
  z.transform((f: z.output<typeof fileEntryInputSchema>, ctx) => {
    const fileName = normaliseSegment(normalisePath(f.fileName).split('/').pop() ?? '');
    if (fileName === '' || fileName === '.' || fileName === '..') {
      // zod/mini's transform context has no addIssue: the issue goes on the payload itself
      ctx.issues.push({ code: 'custom', path: ['fileName'], message: 'invalid_file_name', input: f });
      return z.NEVER;
    }
    const dirs = f.itemPath === undefined ? [] : normalisePath(f.itemPath).split('/').slice(0, -1).filter(Boolean);
    return { fileName, size: f.size, ...(f.itemPath === undefined ? {} : { itemPath: [...dirs, fileName].join('/') }) };
  }),
);

export type FileEntry = z.output<typeof fileEntrySchema>;

export type RemovalReason = 'insecure' | 'copyright';

export interface FilterResult<F extends FileEntry> {
  kept: F[];
  removed: { file: F; reason: RemovalReason }[];
}

/**
 * Spec §5 names html, htm and exe; the rest are the same risks under other names: pages a
 * browser renders with script (xhtml, shtml, mhtml, hta) and files Windows runs on a
 * double-click (docs/decisions.md, "What guests may not send").
 */
export const INSECURE_EXTENSIONS = [
  'html', 'htm', 'exe',
  'xhtml', 'xht', 'shtml', 'mht', 'mhtml', 'hta',
  'scr', 'com', 'pif', 'bat', 'cmd', 'msi', 'vbs', 'vbe', 'jse', 'wsf', 'ps1', 'lnk', 'cpl',
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
const RELEASE_TAGS = [
  '1080p',
  '2160p',
  'web[-. _]?rip',
  'web[-. _]?dl',
  's0[1-6](?:e\\d{1,3})?',
  ...TORRENT_SITE_TAGS,
];
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
export function guestRemovalReason(file: { readonly fileName: string; readonly itemPath?: string | undefined }): RemovalReason | null {
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
