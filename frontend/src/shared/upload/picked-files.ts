/**
 * Files from the pickers and from drag and drop, with the relative path a folder gives them
 * (spec §3: itemPath is the prefix path plus the relative path), and the pairing of the
 * server's upload plan with the bytes picked.
 */
import { fileKey, type FileEntry } from '@domain/file-filters';
import type { PlannedFile } from '@domain/transfer-api';

/** A recording made in the browser: a voice memo or a video (the recorder of the send form). */
export type RecordingKind = 'voice' | 'video';

/** A file the sender picked or dropped, or recorded in the browser, with the bytes to upload. */
export interface PickedFile extends FileEntry {
  readonly blob: Blob;
  /** set for a voice memo or video recorded in the browser (sent as voiceMemo / recordedVideos) */
  readonly recording?: RecordingKind;
}

/**
 * The files in the order the server plans them: picked files, then recorded videos, then the
 * voice memo (the create body's fileObjects, recordedVideos, voiceMemo, concatenated).
 */
export function inDraftOrder<F extends Pick<PickedFile, 'recording'>>(files: readonly F[]): F[] {
  return [
    ...files.filter((f) => !f.recording),
    ...files.filter((f) => f.recording === 'video'),
    ...files.filter((f) => f.recording === 'voice'),
  ];
}

/** A picked File: folder pickers set webkitRelativePath ('photos/2024/a.jpg'), file pickers ''. */
export function pickedFromFiles(files: Iterable<File>): PickedFile[] {
  return [...files].map((file) => picked(file, file.webkitRelativePath));
}

function picked(file: File, relativePath: string | undefined): PickedFile {
  const itemPath = relativePath?.replace(/^\/+/u, '');
  return itemPath && itemPath !== file.name
    ? { fileName: file.name, size: file.size, itemPath, blob: file }
    : { fileName: file.name, size: file.size, blob: file };
}

/**
 * The File and Directory Entries API, as far as a drop needs it (FileSystemEntry and friends,
 * narrowed so tests can walk a tree without a browser).
 */
export interface DroppedEntry {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  /** '/photos/2024/a.jpg' for an entry inside a dropped folder, '/a.jpg' for a dropped file */
  readonly fullPath: string;
}
export interface DroppedFileEntry extends DroppedEntry {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void;
}
export interface DroppedDirectoryEntry extends DroppedEntry {
  createReader(): { readEntries(success: (entries: DroppedEntry[]) => void, failure?: (error: unknown) => void): void };
}

function isFileEntry(entry: DroppedEntry): entry is DroppedFileEntry {
  return entry.isFile && typeof (entry as Partial<DroppedFileEntry>).file === 'function';
}
function isDirectoryEntry(entry: DroppedEntry): entry is DroppedDirectoryEntry {
  return entry.isDirectory && typeof (entry as Partial<DroppedDirectoryEntry>).createReader === 'function';
}

/** readEntries answers in batches (Chromium: 100); an empty batch means the folder is done. */
async function readAll(dir: DroppedDirectoryEntry): Promise<DroppedEntry[]> {
  const reader = dir.createReader();
  const all: DroppedEntry[] = [];
  for (;;) {
    const batch = await new Promise<DroppedEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/**
 * Every file under the dropped entries, folders walked depth-first. A file that cannot be
 * read (deleted meanwhile, permission) is reported in `unreadable` instead of failing the drop.
 */
export async function filesFromEntries(
  entries: readonly DroppedEntry[],
): Promise<{ files: PickedFile[]; unreadable: string[] }> {
  const files: PickedFile[] = [];
  const unreadable: string[] = [];
  const visit = async (entry: DroppedEntry, inFolder: boolean): Promise<void> => {
    if (isDirectoryEntry(entry)) {
      for (const child of await readAll(entry)) await visit(child, true);
    } else if (isFileEntry(entry)) {
      try {
        const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
        files.push(picked(file, inFolder ? entry.fullPath : undefined));
      } catch {
        unreadable.push(entry.name);
      }
    }
  };
  for (const entry of entries) await visit(entry, false);
  return { files, unreadable };
}

/**
 * What a drop carries. Entries must be taken while the drop event runs (the DataTransfer is
 * emptied afterwards), so this reads them synchronously and walks them later.
 */
export function entriesOfDrop(data: DataTransfer): { entries: DroppedEntry[]; plainFiles: File[] } {
  const entries: DroppedEntry[] = [];
  const plainFiles: File[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry as unknown as DroppedEntry);
    else {
      const file = item.getAsFile();
      if (file) plainFiles.push(file);
    }
  }
  // Browsers without DataTransfer.items still fill .files (no folders there).
  if (entries.length === 0 && plainFiles.length === 0) plainFiles.push(...Array.from(data.files));
  return { entries, plainFiles };
}

/** One upload-plan entry and the bytes it stands for. */
export interface PlannedUpload {
  readonly plan: PlannedFile;
  readonly blob: Blob;
}

/**
 * Pairs the server's plan with the picked files. The plan keeps the order of the draft, so the
 * same position is tried first; a reordered plan is matched by relative path or name. A plan
 * entry without bytes of the same size is a contract error, not something to upload around.
 */
export function matchPlannedFiles(
  plan: readonly PlannedFile[],
  files: readonly Pick<PickedFile, 'fileName' | 'itemPath' | 'size' | 'blob'>[],
): PlannedUpload[] {
  const byKey = new Map<string, (typeof files)[number]>();
  for (const f of files) if (!byKey.has(fileKey(f))) byKey.set(fileKey(f), f);
  return plan.map((entry, index) => {
    const key = fileKey(entry);
    const sameSpot = files[index];
    const file = sameSpot && fileKey(sameSpot) === key ? sameSpot : byKey.get(key);
    // an encrypted file's plan names its sealed size; the picked bytes are its plaintext
    const size = entry.e2e ? entry.e2e.plainSize : entry.size;
    if (!file || file.size !== size) throw new Error(`No picked file matches ${key} (${size} bytes)`);
    return { plan: entry, blob: file.blob };
  });
}
