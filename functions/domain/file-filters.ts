/** File-list rules of spec §5: guest upload filter and duplicate removal. */
import * as z from 'zod';

export const fileEntrySchema = z.object({
  fileName: z.string().min(1).max(1024),
  size: z.number().int().nonnegative(),
  itemPath: z.string().max(4096).optional(),
});

export type FileEntry = z.infer<typeof fileEntrySchema>;

export type RemovalReason = 'insecure' | 'copyright';

export interface FilterResult<F extends FileEntry> {
  kept: F[];
  removed: { file: F; reason: RemovalReason }[];
}

export const INSECURE_EXTENSIONS = ['html', 'htm', 'exe'] as const;
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

/** Why a not-logged-in sender may not upload this file, or null. */
export function guestRemovalReason(file: Pick<FileEntry, 'fileName'>): RemovalReason | null {
  const ext = extensionOf(file.fileName);
  if ((INSECURE_EXTENSIONS as readonly string[]).includes(ext)) return 'insecure';
  if ((VIDEO_EXTENSIONS_CHECKED as readonly string[]).includes(ext) && hasPiratedReleaseTag(file.fileName)) {
    return 'copyright';
  }
  return null;
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
