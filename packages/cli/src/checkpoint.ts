/**
 * Resume checkpoints of `sendbridge send` (spec: an interrupted upload resumes within 7 days).
 * Which parts are done is recorded server-side; the checkpoint only remembers which transfer
 * a set of local files went to. It is keyed by the files' identity (absolute path, size,
 * modification time, inode) and the send's options, so the same command finds it again and a
 * changed file or another recipient starts a new transfer. Kept in <config dir>/uploads.json
 * (0600); entries older than the resume window are dropped.
 * An end-to-end encrypted send also keeps its transfer key and each file's salt here (the file
 * is 0600, its folder 0700): a resumed part must seal to the same bytes, so it needs the same
 * key and salt, and they exist nowhere else but in the recipients' link or passphrase. A file
 * whose path, size, modification time or inode changed never matches, so it is sent anew under
 * a new key and salt.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { RESUME_WINDOW_SECONDS } from '../../../functions/domain/expiry';
import { readJsonFile, writePrivateFile } from './config';

export interface LocalFileIdentity {
  /** absolute path */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

export interface CheckpointFile {
  readonly fileId: string;
  readonly path: string;
  /** the stored size (sealed bytes for an encrypted file) */
  readonly size: number;
  /** encrypted sends: the file's salt and plaintext size, and the identity it was sealed from */
  readonly e2e?: { readonly salt: string; readonly plainSize: number; readonly mtimeMs: number; readonly ino: number };
}

export interface SendCheckpoint {
  readonly transferId: string;
  readonly origin: string;
  /** epoch ms */
  readonly createdAt: number;
  readonly files: readonly CheckpointFile[];
  /** encrypted sends: the transfer key (base64url) and how recipients get it */
  readonly e2e?: { readonly key: string; readonly mode: 'link' | 'passphrase' };
}

interface Store {
  version: 1;
  checkpoints: Record<string, SendCheckpoint>;
}

export function checkpointFile(dir: string): string {
  return path.join(dir, 'uploads.json');
}

/** The key of a send: every file's identity plus what the transfer is (origin, recipients, options). */
export function checkpointKey(
  origin: string,
  files: readonly LocalFileIdentity[],
  options: Record<string, unknown>,
): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ origin, options: sortKeys(options) }));
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    h.update(`\n${JSON.stringify([f.path, f.size, Math.trunc(f.mtimeMs), f.ino])}`);
  }
  return h.digest('hex');
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

function isFresh(cp: SendCheckpoint, now: number): boolean {
  const age = now - cp.createdAt;
  return age >= 0 && age < RESUME_WINDOW_SECONDS * 1000;
}

function isCheckpoint(v: unknown): v is SendCheckpoint {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const e2e = c.e2e as Record<string, unknown> | undefined;
  if (e2e !== undefined && (typeof e2e !== 'object' || e2e === null || typeof e2e.key !== 'string')) return false;
  return (
    typeof c.transferId === 'string' &&
    typeof c.origin === 'string' &&
    typeof c.createdAt === 'number' &&
    Array.isArray(c.files) &&
    c.files.every(
      (f: unknown) =>
        typeof f === 'object' &&
        f !== null &&
        typeof (f as CheckpointFile).fileId === 'string' &&
        typeof (f as CheckpointFile).path === 'string' &&
        typeof (f as CheckpointFile).size === 'number' &&
        (e2e === undefined || typeof (f as CheckpointFile).e2e?.salt === 'string'),
    )
  );
}

function readStore(dir: string, now: number): Store {
  const raw = readJsonFile(checkpointFile(dir)) as Partial<Store> | undefined;
  const checkpoints: Record<string, SendCheckpoint> = {};
  if (raw && typeof raw.checkpoints === 'object' && raw.checkpoints !== null) {
    for (const [k, v] of Object.entries(raw.checkpoints)) if (isCheckpoint(v) && isFresh(v, now)) checkpoints[k] = v;
  }
  return { version: 1, checkpoints };
}

function writeStore(dir: string, store: Store): void {
  writePrivateFile(checkpointFile(dir), `${JSON.stringify(store, null, 2)}\n`);
}

/** The checkpoint of this send if one exists within the resume window, else null. */
export function findSendCheckpoint(dir: string, key: string, now = Date.now()): SendCheckpoint | null {
  return readStore(dir, now).checkpoints[key] ?? null;
}

export function saveSendCheckpoint(dir: string, key: string, cp: SendCheckpoint, now = Date.now()): void {
  const store = readStore(dir, now);
  store.checkpoints[key] = cp;
  writeStore(dir, store);
}

export function clearSendCheckpoint(dir: string, key: string, now = Date.now()): void {
  const store = readStore(dir, now);
  if (!(key in store.checkpoints)) return;
  delete store.checkpoints[key];
  writeStore(dir, store);
}
