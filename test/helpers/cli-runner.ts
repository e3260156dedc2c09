/**
 * The `sendbridge` binary (packages/cli) as a child process, as a user runs it from a terminal:
 * no stdin, its own HOME and config folder. Shared by the CLI e2e tests.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../scripts/local/app';

export const CLI_DIR = path.join(REPO_ROOT, 'packages', 'cli');
export const CLI_BIN = path.join(CLI_DIR, 'bin', 'sendbridge.mjs');

/** Builds the bundle the binary runs from the current sources (a stale dist/ would test old code). */
export function buildCli(): void {
  execFileSync(process.execPath, [path.join(CLI_DIR, 'build.mjs')], { stdio: 'pipe' });
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** every --json line of stdout, parsed */
  events: Record<string, any>[];
}

export interface CliPlace {
  /** working folder, HOME and the config folder (SENDBRIDGE_CONFIG_DIR) */
  readonly cwd: string;
  readonly home: string;
  readonly configDir: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  /** sees each --json line as it arrives and may interrupt the child */
  onEvent?: (e: Record<string, any>, child: ReturnType<typeof spawn>) => void;
  cwd?: string;
  /** another copy of the binary (default: packages/cli's) */
  bin?: string;
}

export function runCli(args: string[], place: CliPlace, opts: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.bin ?? CLI_BIN, ...args], {
      cwd: opts.cwd ?? place.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: place.home, SENDBRIDGE_CONFIG_DIR: place.configDir, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    let pending = '';
    const events: Record<string, any>[] = [];
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      pending += d.toString();
      let nl: number;
      while ((nl = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        try {
          const e = JSON.parse(line) as Record<string, any>;
          events.push(e);
          opts.onEvent?.(e, child);
        } catch {
          // not a JSON line (human output)
        }
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, events }));
  });
}
