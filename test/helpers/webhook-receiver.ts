import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly at: number;
}

/**
 * A webhook receiver on loopback: records every POST, and answers with the next status of
 * `answers` (then 200). `waitFor` resolves when a matching delivery has arrived.
 */
export async function startReceiver() {
  const received: ReceivedHook[] = [];
  const answers: number[] = [];
  const waiters: { match: (h: ReceivedHook) => boolean; resolve: (h: ReceivedHook) => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hook: ReceivedHook = {
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v ?? '')]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(hook);
      const status = answers.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver down');
      for (const w of [...waiters]) {
        if (w.match(hook)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(hook);
        }
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** the next deliveries are answered with these statuses */
    answerNext: (...statuses: number[]) => answers.push(...statuses),
    waitFor(match: (h: ReceivedHook) => boolean, timeoutMs = 60_000): Promise<ReceivedHook> {
      const already = received.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching webhook delivery arrived')), timeoutMs);
        waiters.push({ match, resolve: (h) => (clearTimeout(timer), resolve(h)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const eventOf = (h: ReceivedHook) =>
  JSON.parse(h.body) as { id: string; type: string; createdAt: string; data: Record<string, unknown> };
