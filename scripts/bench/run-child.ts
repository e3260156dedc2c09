/**
 * Runs one step of a bench in a Node process of its own (under tsx): its config as JSON in an
 * environment variable, its answer as the stdout line `RESULT {json}`. Killed after `timeoutMs`.
 * `onStderr` sees the child's whole stderr (a trace it printed, say) whatever the outcome.
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../local/app';

export function runBenchChild<R>(opts: {
  readonly script: string;
  readonly envName: string;
  readonly config: unknown;
  readonly label: string;
  readonly timeoutMs: number;
  readonly onStderr?: (stderr: string) => void;
}): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', opts.script], {
      cwd: REPO_ROOT,
      env: { ...process.env, [opts.envName]: JSON.stringify(opts.config), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      opts.onStderr?.(stderr);
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as R);
      else reject(new Error(`${opts.label} exited ${code ?? sig}: ${stderr.slice(-2000)}`));
    });
  });
}
