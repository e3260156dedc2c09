import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { HOST } from './ports';
import { StartTimeoutError, startTimeoutMs } from './start-timeout';

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  /** recent output, for the error message when a child dies early */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns a service and resolves once `ready` matches its output (or `waitFor` resolves).
 * If the child exits first, rejects with its last output lines so the cause is visible; if it
 * is not ready within `timeoutMs` (default: EMULATOR_START_TIMEOUT_MS or 120 s), rejects with a
 * StartTimeoutError whose first line names the process, its port and how to wait longer.
 */
export async function startChild(
  name: string,
  command: string,
  args: string[],
  opts: SpawnOptions & { ready?: RegExp; waitFor?: () => Promise<void>; timeoutMs?: number; port?: number },
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
  const timeoutMs = opts.timeoutMs ?? startTimeoutMs();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        fail(
          new StartTimeoutError({
            service: name,
            host: HOST,
            timeoutMs,
            ...(opts.port ? { port: opts.port } : {}),
            ...(proc.pid ? { pid: proc.pid } : {}),
          }),
        ),
      timeoutMs,
    );
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
      if (opts.ready?.test(buffer)) {
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
      opts.waitFor().then(() => {
        cleanup();
        resolve();
      }, fail);
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

/** An emulator kept running by `supervise`: `current()` is the child of the moment. */
export interface Supervised {
  readonly name: string;
  current(): Child;
  /** no restart from now on; the child runs until `stop` (shutting down: Ctrl-C reaches the children too) */
  hold(): void;
  /** stops it for good (no restart) */
  stop(): Promise<void>;
}

/** Restarts of a child that keeps dying soon after starting wait longer each time, up to this. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A child that ran this long before dying is restarted at once. */
const HEALTHY_RUN_MS = 10_000;
/**
 * How long an exit is looked at before it counts as a death: Ctrl-C in a terminal reaches the
 * emulators at the same moment as `npm start`, whose shutdown holds the restarts meanwhile.
 */
const EXIT_GRACE_MS = 500;

/**
 * Keeps an emulator of the local stack running, as a managed service would be: when its child
 * exits without being asked to, one line says so and it is started again on the same port, then
 * `afterRestart` runs (DynamoDB Local in memory needs its table again). A child that keeps dying
 * right after starting is retried with a growing pause instead of in a tight loop.
 */
export async function supervise(
  start: () => Promise<Child>,
  opts: { readonly log: (line: string) => void; readonly afterRestart?: () => Promise<void> },
): Promise<Supervised> {
  let child = await start();
  let startedAt = Date.now();
  let stopping = false;
  let quickDeaths = 0;
  let restarting: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function revive(why: string): Promise<void> {
    const ran = Date.now() - startedAt;
    await pause(EXIT_GRACE_MS);
    if (stopping) return;
    // The first death is restarted at once; a child dying again soon after its restart waits 1, 2, 4 … s.
    quickDeaths = ran < HEALTHY_RUN_MS ? quickDeaths + 1 : 0;
    let delay = quickDeaths <= 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** (quickDeaths - 1));
    opts.log(`[stack] ${child.name} ${why}; restarting it${delay ? ` in ${Math.round(delay / 1000)} s` : ''}`);
    while (!stopping) {
      if (delay) await pause(delay);
      if (stopping) return;
      try {
        const next = await start();
        if (stopping) return void (await next.stop());
        child = next;
        startedAt = Date.now();
        watch(next);
      } catch (err) {
        delay = Math.min(MAX_RESTART_DELAY_MS, Math.max(1000, delay * 2));
        const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
        opts.log(`[stack] ${child.name} did not restart (${reason}); trying again in ${Math.round(delay / 1000)} s`);
        continue;
      }
      await opts
        .afterRestart?.()
        .catch((err: unknown) =>
          opts.log(
            `[stack] ${child.name} restarted, but setting it up failed: ${err instanceof Error ? err.message : String(err)}`,
          ),
        );
      return;
    }
  }

  function watch(c: Child) {
    c.process.once('exit', (code, signal) => {
      if (stopping || c !== child) return;
      restarting = revive(`exited (${signal ?? `code ${code}`})`).finally(() => {
        restarting = undefined;
      });
    });
  }
  watch(child);

  return {
    name: child.name,
    current: () => child,
    hold() {
      stopping = true;
      wake?.();
    },
    async stop() {
      stopping = true;
      wake?.();
      await restarting;
      await child.stop();
    },
  };
}
