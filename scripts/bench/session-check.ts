import type { Context } from 'aws-lambda';
import { FUNCTIONS_DIR, type LocalApp } from '../local/app';
import { createHandlerLoader } from '../local/gateway/server';
import { buildEvent } from '../local/gateway/event';
import { routes } from '../../functions/routes';
import { ddb } from '../../functions/lib/clients/dynamodb';
import { alternateRounds, medianOf, type RoundResult } from './gateway-overhead';

/**
 * The cost of the per-request session check (services/accounts-sessions.ts): GET /me/claims,
 * whose handler touches nothing else, called in-process against DynamoDB Local with
 *  - `skipped`: claims without a `jti` (no check: the baseline),
 *  - `uncached`: a new `jti` on every call (one GetItem each),
 *  - `cached`: one `jti` over and over (the short cache answers),
 * in alternating rounds, one request at a time (the added latency of one request). DynamoDB
 * calls are counted on the table client itself.
 */
export async function benchSessionCheck(_app: LocalApp, opts = { rounds: 5, requests: 200, concurrency: 1 }) {
  const route = routes.find((r) => r.path === '/me/claims')!;
  const handler = await createHandlerLoader(FUNCTIONS_DIR)(route.handler);
  const ctx = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
  let calls = 0;
  ddb().middlewareStack.add(
    (next) => async (args) => {
      calls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCountCalls' },
  );

  const iat = () => String(Math.floor(Date.now() / 1000));
  let n = 0;
  const call = (claims: Record<string, string>) => async () => {
    const event = buildEvent(
      {
        method: 'GET',
        url: '/api/me/claims',
        rawHeaders: [],
        body: Buffer.alloc(0),
        sourceIp: '127.0.0.1',
        host: 'bench',
      },
      route,
      {},
      claims,
    );
    const r = (await handler(event, ctx)) as { statusCode: number };
    if (r.statusCode !== 200) throw new Error(`handler answered ${r.statusCode}`);
  };
  const skipped = call({ sub: 'bench-user', iat: iat() });
  const uncached = async () => call({ sub: 'bench-user', iat: iat(), jti: `bench-${++n}` })();
  const cached = call({ sub: 'bench-user', iat: iat(), jti: 'bench-cached' });

  /** DynamoDB calls per request of one variant, over `count` requests after a warm-up. */
  const callsPer = async (run: () => Promise<void>, count = 100) => {
    await run();
    const before = calls;
    for (let i = 0; i < count; i++) await run();
    return (calls - before) / count;
  };
  const ddbCallsPerRequest = {
    skipped: await callsPer(skipped),
    uncached: await callsPer(uncached),
    cached: await callsPer(cached),
  };
  if (ddbCallsPerRequest.uncached === 0)
    throw new Error('no DynamoDB call counted: the bench and the handler use different clients');

  const [base, checkedRounds] = await alternateRounds(skipped, uncached, opts);
  const [, cachedRounds] = await alternateRounds(skipped, cached, {
    ...opts,
    rounds: Math.max(2, Math.floor(opts.rounds / 2)),
  });
  const summary = (rs: RoundResult[]) => ({ ...medianOf(rs), rounds: rs });
  const s = { skipped: summary(base), uncached: summary(checkedRounds), cached: summary(cachedRounds) };
  const added = { uncachedP50Ms: s.uncached.p50Ms - s.skipped.p50Ms, cachedP50Ms: s.cached.p50Ms - s.skipped.p50Ms };
  const strip = (x: ReturnType<typeof summary>) => ({ ...x, rounds: undefined });
  return {
    name: 'session-check',
    description:
      'GET /api/me/claims in-process: the session check skipped, uncached (one GetItem) and cached; DynamoDB calls per request counted on the client',
    parameters: opts,
    ddbCallsPerRequest,
    ...s,
    added,
    summary: {
      ddbCallsPerRequest,
      skipped: strip(s.skipped),
      uncached: strip(s.uncached),
      cached: strip(s.cached),
      added,
    },
  };
}
