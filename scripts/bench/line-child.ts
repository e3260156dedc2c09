/**
 * A sender's line, in a process of its own: one TCP port per target (s3rver, the API) and one
 * uplink shared by every connection through them, at LINE_CHILD.mbit megabits per second (a token
 * bucket), with LINE_CHILD.rttMs of round trip (half each way). Downlink bytes are only delayed.
 * What a sender's upload meets on a real network, where the line, not the sender's CPU, is the
 * ceiling. Prints `READY {"ports":[...]}` and runs until killed.
 */
import net from 'node:net';

export interface LineChildConfig {
  /** the ports to forward to on 127.0.0.1, in order; READY lists the line's port for each */
  readonly targets: readonly number[];
  readonly mbit: number;
  readonly rttMs: number;
}

interface Pending {
  readonly due: number;
  data: Buffer;
  readonly to: net.Socket;
  readonly from: net.Socket;
}

/** Pause a sender once this much of its bytes wait for the line. */
const QUEUE_HIGH_BYTES = 1024 * 1024;
/** The bucket's depth: a burst the line lets through at once (about 2 ms at 1 Gbit/s). */
const BURST_BYTES = 256 * 1024;

function startLine(cfg: LineChildConfig): Promise<number[]> {
  const bytesPerMs = (cfg.mbit * 1e6) / 8 / 1000;
  const oneWay = cfg.rttMs / 2;
  const up: Pending[] = [];
  const down: Pending[] = [];
  const queued = new Map<net.Socket, number>();
  let tokens = BURST_BYTES;
  let lastFill = performance.now();
  let timer: NodeJS.Timeout | undefined;

  const settle = (from: net.Socket, bytes: number) => {
    const left = (queued.get(from) ?? 0) - bytes;
    queued.set(from, left);
    if (left < QUEUE_HIGH_BYTES / 2 && from.isPaused()) from.resume();
  };
  const pump = () => {
    timer = undefined;
    const now = performance.now();
    tokens = Math.min(BURST_BYTES, tokens + (now - lastFill) * bytesPerMs);
    lastFill = now;
    while (up.length > 0 && up[0]!.due <= now && tokens >= 1) {
      const p = up[0]!;
      const n = Math.min(p.data.length, Math.floor(tokens));
      tokens -= n;
      if (!p.to.destroyed) p.to.write(p.data.subarray(0, n));
      settle(p.from, n);
      if (n === p.data.length) up.shift();
      else p.data = p.data.subarray(n);
    }
    while (down.length > 0 && down[0]!.due <= now) {
      const p = down.shift()!;
      if (!p.to.destroyed) p.to.write(p.data);
    }
    schedule();
  };
  const schedule = () => {
    if (timer || (up.length === 0 && down.length === 0)) return;
    const next = Math.min(up[0]?.due ?? Infinity, down[0]?.due ?? Infinity);
    const wait = up.length > 0 && up[0]!.due <= performance.now() ? 1 : Math.max(1, next - performance.now());
    timer = setTimeout(pump, wait);
  };
  const carry = (from: net.Socket, to: net.Socket, queue: Pending[], shaped: boolean) => {
    from.on('data', (data: Buffer) => {
      queue.push({ due: performance.now() + oneWay, data, to, from });
      if (shaped) {
        const q = (queued.get(from) ?? 0) + data.length;
        queued.set(from, q);
        if (q > QUEUE_HIGH_BYTES) from.pause();
      }
      schedule();
    });
    // an end is passed on once the bytes before it have gone
    from.on('end', () => {
      const waitEnd = () => (queue.some((p) => p.to === to) ? setTimeout(waitEnd, 1) : to.end());
      waitEnd();
    });
    from.on('error', () => to.destroy());
    from.on('close', () => queued.delete(from));
  };

  return Promise.all(
    cfg.targets.map(
      (target) =>
        new Promise<number>((resolve) => {
          const server = net.createServer((client) => {
            const upstream = net.connect({ host: '127.0.0.1', port: target });
            client.setNoDelay(true);
            upstream.setNoDelay(true);
            carry(client, upstream, up, true);
            carry(upstream, client, down, false);
          });
          server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
        }),
    ),
  );
}

const cfg = JSON.parse(process.env.LINE_CHILD ?? 'null') as LineChildConfig | null;
if (cfg) {
  const ports = await startLine(cfg);
  console.log(`READY ${JSON.stringify({ ports })}`);
}
