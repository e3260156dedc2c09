/**
 * Versions of a file of a sent transfer: the sender uploads a new version of one of its files
 * (POST /transfers/{id}/files/{fileId}/versions); it is a file record of its own in the same
 * transfer naming the first version (`versionOf`) and its number (`version`, 2, 3, …). Once
 * uploaded it is the current version: recipients (download page, ZIP, previews, manifest, mails)
 * see the current version of each file only; the older ones stay stored until the transfer
 * expires and the sender sees them in the TransferModal. Reviews keep one thread per file,
 * named by the first version's id (review-api.ts ReviewFileView). Pure: the app reads it too.
 */
import { fileRuleViolations, totalSize, type FileEntry } from './file-filters';
import { limitsFor } from './plans';
import { previewRuleOf, type Recording } from './previews';
import type { ReviewFileView } from './review-api';

/** What a file record says of its version; both are absent on a first version. */
export interface VersionFields {
  readonly fileId: string;
  /** the first version's file id (absent on the first version itself) */
  readonly versionOf?: string;
  /** 2, 3, …; absent means 1 */
  readonly version?: number;
}

/** The highest version a file may reach: plenty for a review, and a bound on one transfer's records. */
export const MAX_FILE_VERSIONS = 100;

export const versionNumberOf = (f: Pick<VersionFields, 'version'>): number => f.version ?? 1;
export const firstVersionIdOf = (f: VersionFields): string => f.versionOf ?? f.fileId;

export interface FileVersionGroup<F extends VersionFields> {
  /** the first version's file id: what review threads, favourites and decisions name */
  readonly fileId: string;
  /** the current version's number */
  readonly version: number;
  /** every version's file id, oldest first (the last is the current one's) */
  readonly versionFileIds: readonly string[];
  readonly current: F;
  /** every version, oldest first */
  readonly versions: readonly F[];
}

/**
 * Groups files by the file they are versions of, in the order their groups first appear in
 * `files` (a transfer's file order puts a first version before its later ones). Pass only the
 * uploaded files: a version still uploading must not become the current one.
 */
export function groupFileVersions<F extends VersionFields>(files: readonly F[]): FileVersionGroup<F>[] {
  const groups = new Map<string, F[]>();
  for (const f of files) {
    const first = firstVersionIdOf(f);
    const list = groups.get(first);
    if (list) list.push(f);
    else groups.set(first, [f]);
  }
  return [...groups].map(([fileId, list]) => {
    const versions = [...list].sort((a, b) => versionNumberOf(a) - versionNumberOf(b));
    const current = versions[versions.length - 1]!;
    return {
      fileId,
      version: versionNumberOf(current),
      versionFileIds: versions.map((v) => v.fileId),
      current,
      versions,
    };
  });
}

/** The current version of each file (pass the uploaded files), in the transfer's file order. */
export function currentVersions<F extends VersionFields>(files: readonly F[]): F[] {
  return groupFileVersions(files).map((g) => g.current);
}

/** The ids of files a later uploaded version replaced (pass the uploaded files). */
export function supersededFileIds(files: readonly VersionFields[]): Set<string> {
  const out = new Set<string>();
  for (const g of groupFileVersions(files)) for (const id of g.versionFileIds.slice(0, -1)) out.add(id);
  return out;
}

/** The review's view of a transfer's files (pass the uploaded files): one entry per file, its current version's name and kind. */
export function reviewFilesOf(
  files: readonly (VersionFields & {
    readonly fileName: string;
    readonly size: number;
    readonly recording?: Recording | undefined;
  })[],
): ReviewFileView[] {
  return groupFileVersions(files).map((g) => ({
    fileId: g.fileId,
    fileName: g.current.fileName,
    previewKind: previewRuleOf(g.current).kind,
    version: g.version,
    versionFileIds: g.versionFileIds,
  }));
}

/** A file record as the version rules read it. */
export interface VersionedFileFacts extends VersionFields {
  readonly fileName: string;
  readonly itemPath?: string;
  readonly size: number;
  readonly status: 'pending' | 'completing' | 'uploaded';
}

export type NewVersionRefusal =
  | { readonly code: 'file_not_found' }
  /** the file named is an older version: `currentFileId` is the one to name */
  | { readonly code: 'not_current_version'; readonly currentFileId: string }
  /** a version of this file is being put together right now (S3 completing its parts) */
  | { readonly code: 'version_completing' }
  | { readonly code: 'too_many_versions'; readonly limit: number }
  | { readonly code: 'file_not_allowed'; readonly fileName: string }
  | { readonly code: 'transfer_too_large'; readonly limit: number };

export type NewVersionCheck =
  | {
      readonly ok: true;
      /** the new record's entry (its folder is the replaced file's) and version fields */
      readonly entry: FileEntry;
      readonly versionOf: string;
      readonly version: number;
      /**
       * files of the transfer still pending from an earlier upload (add-files or a version):
       * the new upload token ends their uploads, so the new version's upload drops them
       */
      readonly abandoned: readonly string[];
    }
  | { readonly ok: false; readonly refusal: NewVersionRefusal };

/**
 * Whether a sender of `role` may upload `entry` as the next version of `fileId` in a transfer
 * holding `files` (all its records, any status). The new version keeps the replaced file's
 * folder; the plan's per-transfer size counts every stored version; versions add no file to
 * the plan's file count (the transfer lists the same files).
 */
export function checkNewVersion(
  files: readonly VersionedFileFacts[],
  fileId: string,
  entry: FileEntry,
  role: string,
): NewVersionCheck {
  const target = files.find((f) => f.fileId === fileId && f.status === 'uploaded');
  if (!target) return { ok: false, refusal: { code: 'file_not_found' } };
  const first = firstVersionIdOf(target);
  const group = files.filter((f) => firstVersionIdOf(f) === first);
  const uploaded = groupFileVersions(group.filter((f) => f.status === 'uploaded'))[0]!;
  if (uploaded.current.fileId !== fileId)
    return { ok: false, refusal: { code: 'not_current_version', currentFileId: uploaded.current.fileId } };
  if (group.some((f) => f.status === 'completing')) return { ok: false, refusal: { code: 'version_completing' } };
  const version = uploaded.version + 1;
  if (version > MAX_FILE_VERSIONS)
    return { ok: false, refusal: { code: 'too_many_versions', limit: MAX_FILE_VERSIONS } };
  const folder = target.itemPath?.split('/').slice(0, -1).join('/');
  const placed: FileEntry = folder
    ? { fileName: entry.fileName, size: entry.size, itemPath: `${folder}/${entry.fileName}` }
    : { fileName: entry.fileName, size: entry.size };
  if (fileRuleViolations(role, { fileObjects: [placed] }).length > 0)
    return { ok: false, refusal: { code: 'file_not_allowed', fileName: placed.fileName } };
  const abandoned = files.filter((f) => f.status === 'pending').map((f) => f.fileId);
  const kept = files.filter((f) => !abandoned.includes(f.fileId));
  const limit = limitsFor(role).uploadLimit;
  if (totalSize(kept) + placed.size > limit) return { ok: false, refusal: { code: 'transfer_too_large', limit } };
  return { ok: true, entry: placed, versionOf: first, version, abandoned };
}
