import { afterEach, describe, expect, it } from 'vitest';
import { startChild, supervise, type Supervised } from '../../../scripts/local/child';

/** A stand-in emulator: a Node child that says it is ready and then idles. */
const startToy = () =>
  startChild('toy emulator', process.execPath, ['-e', 'console.log("READY"); setInterval(() => {}, 1000)'], {
    ready: /READY/,
    timeoutMs: 10_000,
  });

const alive = (pid: number | undefined) => {
  try {
    process.kill(pid!, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

let running: Supervised | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('the local stack supervisor', () => {
  it('starts a killed child again, saying so in one line', async () => {
    const lines: string[] = [];
    let setups = 0;
    running = await supervise(startToy, { log: (l) => lines.push(l), afterRestart: async () => void (setups += 1) });
    const first = running.current();
    first.process.kill('SIGKILL');
    await until(() => running!.current() !== first && setups === 1);
    expect(alive(running.current().process.pid)).toBe(true);
    expect(lines).toEqual(['[stack] toy emulator exited (SIGKILL); restarting it']);
  });

  it('leaves a child it was asked to stop stopped', async () => {
    const lines: string[] = [];
    running = await supervise(startToy, { log: (l) => lines.push(l) });
    const child = running.current();
    await running.stop();
    await new Promise((r) => setTimeout(r, 300));
    expect(child.process.exitCode !== null || child.process.signalCode !== null).toBe(true);
    expect(running.current()).toBe(child);
    expect(lines).toEqual([]);
  });

  it('once held (the stack shutting down, Ctrl-C reaching every child), lets a dying child go', async () => {
    const lines: string[] = [];
    running = await supervise(startToy, { log: (l) => lines.push(l) });
    const child = running.current();
    child.process.kill('SIGINT');
    running.hold();
    await new Promise((r) => setTimeout(r, 1000));
    expect(running.current()).toBe(child);
    expect(lines).toEqual([]);
  });

  it('waits before restarting a child that dies again right after its restart', async () => {
    const lines: string[] = [];
    running = await supervise(startToy, { log: (l) => lines.push(l) });
    const first = running.current();
    first.process.kill('SIGKILL');
    await until(() => running!.current() !== first);
    running.current().process.kill('SIGTERM');
    await until(() => lines.length === 2);
    expect(lines).toEqual([
      '[stack] toy emulator exited (SIGKILL); restarting it',
      '[stack] toy emulator exited (SIGTERM); restarting it in 1 s',
    ]);
  });
});
