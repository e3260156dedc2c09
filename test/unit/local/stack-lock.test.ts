import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStackLock, resetData, runningStackPid, writeStackLock } from '../../../scripts/local/stack-lock';

const tempDataDir = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-lock-')), '.data');

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('npm run reset and the running stack', () => {
  it('refuses to wipe the data while the stack that wrote the lock runs, and names its pid', () => {
    const dir = tempDataDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'table.db'), 'x');
    writeStackLock(dir);
    expect(resetData(dir)).toEqual({ kind: 'running', pid: process.pid });
    expect(existsSync(path.join(dir, 'table.db'))).toBe(true);
  });

  it('wipes the data once the stack has removed its lock', () => {
    const dir = tempDataDir();
    writeStackLock(dir);
    removeStackLock(dir);
    expect(runningStackPid(dir)).toBeUndefined();
    expect(resetData(dir)).toEqual({ kind: 'removed' });
    expect(existsSync(dir)).toBe(false);
    expect(resetData(dir)).toEqual({ kind: 'nothing' });
  });

  it('treats a lock left by a stack that died as stale', () => {
    const dir = tempDataDir();
    writeStackLock(dir, deadPid());
    expect(runningStackPid(dir)).toBeUndefined();
    expect(resetData(dir)).toEqual({ kind: 'removed' });
  });

  it("does not remove another process's lock", () => {
    const dir = tempDataDir();
    writeStackLock(dir, process.ppid);
    removeStackLock(dir);
    expect(runningStackPid(dir)).toBe(process.ppid);
  });
});
