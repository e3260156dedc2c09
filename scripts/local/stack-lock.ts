import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm start` leaves its pid in `<dataDir>/stack.pid` while it runs, so `npm run reset` can
 * refuse to delete the data under a running stack (DynamoDB Local and s3rver keep their files
 * open; deleting them breaks the stack without a word).
 */
const LOCK_FILE = 'stack.pid';

export function writeStackLock(dataDir: string, pid = process.pid): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, LOCK_FILE), `${pid}\n`);
}

/** Removes the lock if it is this process's (a second start must not remove the first's). */
export function removeStackLock(dataDir: string, pid = process.pid): void {
  if (runningStackPid(dataDir) === pid) rmSync(path.join(dataDir, LOCK_FILE), { force: true });
}

/** The pid of the `npm start` that runs on this data, or undefined (no lock, or a stale one). */
export function runningStackPid(dataDir: string): number | undefined {
  const file = path.join(dataDir, LOCK_FILE);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive but not ours to signal; ESRCH: gone, the lock is stale.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

export type ResetOutcome =
  | { readonly kind: 'removed' | 'nothing' }
  | { readonly kind: 'running'; readonly pid: number };

/** Wipes `dataDir` unless a local stack is running on it. */
export function resetData(dataDir: string): ResetOutcome {
  const pid = runningStackPid(dataDir);
  if (pid !== undefined) return { kind: 'running', pid };
  if (!existsSync(dataDir)) return { kind: 'nothing' };
  rmSync(dataDir, { recursive: true, force: true });
  return { kind: 'removed' };
}
