/**
 * Resume checkpoints (spec §8, §9: 'You can resume this transfer within 7 days'). The browser
 * keeps which transfer its picked files went to and the upload token; the parts themselves
 * are recorded server-side. A checkpoint is offered again only when the user picks the same
 * files (name and size) within the resume window.
 *
 * An end-to-end encrypted upload also keeps what sealing the rest needs: the transfer key (here,
 * in this browser's own storage, and never sent) and each file's salt. Its files are resumed only
 * when name, size and modification time all match (docs/e2e-format.md): a changed file sealed
 * under the same salt would reuse nonces.
 */
import { RESUME_WINDOW_SECONDS } from '@domain/expiry';
import { checkpointMatches } from '@domain/upload';
import { SECOND_MS } from '@domain/units';

export interface CheckpointFile {
  readonly fileId: string;
  readonly fileName: string;
  /** the picked file's size (an encrypted file's plaintext size) */
  readonly size: number;
  readonly itemPath?: string;
  /** the picked file's modification time (epoch ms): an encrypted file resumes only when it is the same */
  readonly lastModified?: number;
  /** an encrypted file: its salt (with the checkpoint's key, what seals its remaining parts) */
  readonly e2e?: { readonly salt: string };
}

export interface UploadCheckpoint {
  /** transfer id */
  readonly id: string;
  readonly uploadToken: string;
  /** epoch ms */
  readonly createdAt: number;
  readonly files: readonly CheckpointFile[];
  /** an encrypted upload: the transfer key (base64url), kept in this browser's storage only */
  readonly e2eKey?: string;
  /** an encrypted upload: how the key travels (a link send's link carries it in its fragment) */
  readonly e2eMode?: 'link' | 'passphrase';
}

export interface PickedFile {
  readonly fileName: string;
  readonly size: number;
  readonly itemPath?: string;
  /** the bytes: a File's modification time tells an encrypted file's resume it is unchanged */
  readonly blob?: Blob;
}

/** A picked file's modification time, when it is a File (a recording is not). */
export function lastModifiedOf(file: PickedFile): number | undefined {
  return typeof File !== 'undefined' && file.blob instanceof File ? file.blob.lastModified : undefined;
}

/**
 * Whether a picked file may continue a checkpoint's file: the same name and size, and for an
 * encrypted one the same modification time as well (its parts sealed under one salt must be of
 * the same bytes).
 */
export function resumableWith(cf: CheckpointFile, picked: PickedFile): boolean {
  if (!checkpointMatches(cf, picked)) return false;
  if (!cf.e2e) return true;
  return cf.lastModified !== undefined && lastModifiedOf(picked) === cf.lastModified;
}

/** The subset of the Web Storage API used here (tests pass an in-memory one). */
export type CheckpointStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const CHECKPOINT_STORAGE_KEY = 'sendbridge.upload-checkpoints';

function defaultStorage(): CheckpointStorage | null {
  try {
    // Access itself throws when storage is disabled (some private modes, sandboxed frames).
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function isCheckpointFile(v: unknown): v is CheckpointFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return (
    typeof f.fileId === 'string' &&
    typeof f.fileName === 'string' &&
    typeof f.size === 'number' &&
    Number.isFinite(f.size) &&
    (f.itemPath === undefined || typeof f.itemPath === 'string') &&
    (f.lastModified === undefined || (typeof f.lastModified === 'number' && Number.isFinite(f.lastModified))) &&
    (f.e2e === undefined ||
      (typeof f.e2e === 'object' && f.e2e !== null && typeof (f.e2e as { salt?: unknown }).salt === 'string'))
  );
}

function isCheckpoint(v: unknown): v is UploadCheckpoint {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return (
    typeof c.id === 'string' &&
    typeof c.uploadToken === 'string' &&
    typeof c.createdAt === 'number' &&
    Array.isArray(c.files) &&
    c.files.length > 0 &&
    c.files.every(isCheckpointFile) &&
    (c.e2eKey === undefined || typeof c.e2eKey === 'string') &&
    // an encrypted file cannot be sealed on without the key
    (typeof c.e2eKey === 'string' || (c.files as CheckpointFile[]).every((f) => !f.e2e))
  );
}

/** Stored checkpoints; anything unparseable or malformed is dropped, never thrown. */
function readAll(storage: CheckpointStorage): UploadCheckpoint[] {
  let raw: string | null;
  try {
    raw = storage.getItem(CHECKPOINT_STORAGE_KEY);
  } catch {
    return [];
  }
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isCheckpoint) : [];
  } catch {
    return [];
  }
}

function writeAll(storage: CheckpointStorage, checkpoints: readonly UploadCheckpoint[]): boolean {
  try {
    if (checkpoints.length === 0) storage.removeItem(CHECKPOINT_STORAGE_KEY);
    else storage.setItem(CHECKPOINT_STORAGE_KEY, JSON.stringify(checkpoints));
    return true;
  } catch {
    // Quota exceeded or storage disabled: the upload still works, it just cannot resume.
    return false;
  }
}

function isFresh(checkpoint: UploadCheckpoint, now: number): boolean {
  const age = now - checkpoint.createdAt;
  return age >= 0 && age < RESUME_WINDOW_SECONDS * SECOND_MS;
}

/**
 * Pairs every checkpoint file with a distinct picked file of the same name and size (a
 * matching folder path preferred), or null when one has no partner. Extra picked files are fine.
 */
export function matchCheckpointFiles<F extends PickedFile>(
  checkpoint: UploadCheckpoint,
  picked: readonly F[],
): Map<string, F> | null {
  const taken = new Set<number>();
  const pairs = new Map<string, F>();
  for (const cf of checkpoint.files) {
    let best = -1;
    for (let i = 0; i < picked.length; i++) {
      if (taken.has(i) || !resumableWith(cf, picked[i]!)) continue;
      if (best === -1) best = i;
      if ((picked[i]!.itemPath ?? '') === (cf.itemPath ?? '')) {
        best = i;
        break;
      }
    }
    if (best === -1) return null;
    taken.add(best);
    pairs.set(cf.fileId, picked[best]!);
  }
  return pairs;
}

/** Saves (or replaces, by transfer id) a checkpoint; drops the expired ones while at it. */
export function saveCheckpoint(
  checkpoint: UploadCheckpoint,
  storage: CheckpointStorage | null = defaultStorage(),
  now = Date.now(),
): boolean {
  if (!storage) return false;
  const others = readAll(storage).filter((c) => c.id !== checkpoint.id && isFresh(c, now));
  return writeAll(storage, [...others, checkpoint]);
}

/**
 * The newest checkpoint younger than the resume window whose every file is among the picked
 * files, or null.
 */
export function findCheckpoint(
  files: readonly PickedFile[],
  now: number,
  storage: CheckpointStorage | null = defaultStorage(),
): UploadCheckpoint | null {
  if (!storage) return null;
  const candidates = readAll(storage)
    .filter((c) => isFresh(c, now) && matchCheckpointFiles(c, files) !== null)
    .sort((a, b) => b.createdAt - a.createdAt);
  return candidates[0] ?? null;
}

export function clearCheckpoint(id: string, storage: CheckpointStorage | null = defaultStorage()): void {
  if (!storage) return;
  const all = readAll(storage);
  const rest = all.filter((c) => c.id !== id);
  if (rest.length !== all.length) writeAll(storage, rest);
}
