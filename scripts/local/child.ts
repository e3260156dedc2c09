import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  /** recent output, for the error message when a child dies early */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns a service and resolves once `ready` matches its output (or `waitFor` resolves).
 * If the child exits first, rejects with its last output lines so the cause is visible.
 */
export async function startChild(
  name: string,
  command: string,
  args: string[],
  opts: SpawnOptions & { ready?: RegExp; waitFor?: () => Promise<void>; timeoutMs?: number },
): Promise<Child> {
  const proc = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer = (buffer + chunk.toString()).slice(-8000);
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  const child: Child = {
    name,
    process: proc,
    output: () => buffer,
    stop: () => stopProcess(proc),
  };
  const timeoutMs = opts.timeoutMs ?? 30_000;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${timeoutMs} ms`)), timeoutMs);
    const onExit = (code: number | null) => fail(new Error(`${name} exited (code ${code}) while starting`));
    const onError = (err: Error) => fail(err);
    function cleanup() {
      clearTimeout(timer);
      proc.off('exit', onExit);
      proc.off('error', onError);
      proc.stdout?.off('data', check);
      proc.stderr?.off('data', check);
    }
    function fail(err: Error) {
      cleanup();
      proc.kill('SIGKILL');
      const tail = buffer.trim().split('\n').slice(-8).join('\n');
      reject(Object.assign(err, { message: `${err.message}${tail ? `\n${tail}` : ''}` }));
    }
    function check() {
      if (opts.ready && opts.ready.test(buffer)) {
        cleanup();
        resolve();
      }
    }
    proc.once('exit', onExit);
    proc.once('error', onError);
    if (opts.ready) {
      proc.stdout?.on('data', check);
      proc.stderr?.on('data', check);
    } else if (opts.waitFor) {
      opts.waitFor().then(() => { cleanup(); resolve(); }, fail);
    } else {
      cleanup();
      resolve();
    }
  });
  return child;
}

export function stopProcess(proc: ChildProcess, graceMs = 3000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    proc.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}
