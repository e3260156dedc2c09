import http from 'node:http';
import type { Context } from 'aws-lambda';
import { FUNCTIONS_DIR, type LocalApp } from '../local/app';
import { createHandlerLoader } from '../local/gateway/server';
import { buildEvent } from '../local/gateway/event';
import { routes } from '../../functions/routes';
import { median, percentile } from './machine';

export interface RoundResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `total` calls with `concurrency` workers; each call's latency is recorded. */
/** Medians of rounds' throughput and latencies. */
export function medianOf(rs: readonly RoundResult[]): RoundResult {
  return {
    requestsPerSecond: median(rs.map((r) => r.requestsPerSecond)),
    p50Ms: median(rs.map((r) => r.p50Ms)),
    p99Ms: median(rs.map((r) => r.p99Ms)),
  };
}

/**
 * Warms both paths (module load, connections, JIT), then runs them in alternating rounds so
 * machine noise falls on both alike. Returns each side's rounds.
 */
export async function alternateRounds(
  a: () => Promise<void>,
  b: () => Promise<void>,
  opts: { rounds: number; requests: number; concurrency: number },
): Promise<[RoundResult[], RoundResult[]]> {
  await drive(a, 50, opts.concurrency);
  await drive(b, 50, opts.concurrency);
  const ra: RoundResult[] = [];
  const rb: RoundResult[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    ra.push(await drive(a, opts.requests, opts.concurrency));
    rb.push(await drive(b, opts.requests, opts.concurrency));
  }
  return [ra, rb];
}

export async function drive(call: () => Promise<void>, total: number, concurrency: number): Promise<RoundResult> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t = performance.now();
        await call();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requestsPerSecond: total / elapsed, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/**
 * /health through the local gateway (HTTP, event building, dispatch) vs the same handler
 * called in-process with a prebuilt event, in alternating rounds of the same run.
 */
export async function benchGatewayOverhead(app: LocalApp, opts = { rounds: 5, requests: 300, concurrency: 8 }) {
  const route = routes.find((r) => r.path === '/health')!;
  const load = createHandlerLoader(FUNCTIONS_DIR);
  const handler = await load(route.handler);
  const url = `${app.apiOrigin}/api/health`;
  const event = () =>
    buildEvent(
      {
        method: 'GET',
        url: '/api/health',
        rawHeaders: [],
        body: Buffer.alloc(0),
        sourceIp: '127.0.0.1',
        host: 'bench',
      },
      route,
      {},
      undefined,
    );
  const ctx = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

  const viaGateway = async () => {
    const status = await get(url);
    if (status !== 200) throw new Error(`gateway answered ${status}`);
  };
  const inProcess = async () => {
    const r = (await handler(event(), ctx)) as { statusCode: number };
    if (r.statusCode !== 200) throw new Error(`handler answered ${r.statusCode}`);
  };

  const [gateway, direct] = await alternateRounds(viaGateway, inProcess, opts);
  const summary = (rs: RoundResult[]) => ({ ...medianOf(rs), rounds: rs });
  const g = summary(gateway);
  const d = summary(direct);
  const ratios = {
    throughputGatewayOverInProcess: g.requestsPerSecond / d.requestsPerSecond,
    p50OverheadMs: g.p50Ms - d.p50Ms,
    p99OverheadMs: g.p99Ms - d.p99Ms,
  };
  return {
    name: 'gateway-overhead',
    description:
      'GET /api/health through the local gateway vs the same handler invoked in-process (medians of alternating rounds)',
    parameters: opts,
    gateway: g,
    inProcess: d,
    ratios,
    summary: { gateway: { ...g, rounds: undefined }, inProcess: { ...d, rounds: undefined }, ratios },
  };
}
