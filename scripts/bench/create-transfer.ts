import type { Context } from 'aws-lambda';
import { FUNCTIONS_DIR, type LocalApp } from '../local/app';
import { createHandlerLoader } from '../local/gateway/server';
import { buildEvent } from '../local/gateway/event';
import { routes } from '../../functions/routes';
import { MB } from '../../functions/domain/units';
import { alternateRounds, medianOf } from './gateway-overhead';
import { createSignedInUser } from '../local/users';

/** A typical guest send: four small files and one multipart file, one recipient. */
const BODY = JSON.stringify({
  sendAs: 'email',
  senderEmail: 'bench@example.com',
  emailTo: [{ email: 'recipient@example.com' }],
  message: 'Benchmark',
  fileObjects: [
    ...Array.from({ length: 4 }, (_, i) => ({
      fileName: `photo-${i}.jpg`,
      size: 3 * MB,
      itemPath: `photos/photo-${i}.jpg`,
    })),
    { fileName: 'video.mp4', size: 200 * MB, itemPath: 'video.mp4' },
  ],
});

/**
 * A business account (1 TB of storage, no monthly cap) signed in through cognito-local: guests
 * have a daily allowance (functions/domain/guest-limits.ts) that 1,000 sends would exhaust.
 */
async function benchSender(app: LocalApp): Promise<{ accessToken: string; sub: string }> {
  return createSignedInUser(app, `bench-${Date.now()}@example.com`, { role: 'business', password: 'bench-secret-1' });
}

/**
 * POST /api/me/transfers (signed-in create: profile, plan validation, storage reservation by
 * transaction, slug by conditional write, file records, one CreateMultipartUpload, presigned
 * PUTs) with 50 concurrent clients through the local gateway, beside the same handler called
 * in-process, in alternating rounds.
 */
export async function benchCreateTransfer(app: LocalApp, opts = { rounds: 3, requests: 500, concurrency: 50 }) {
  const sender = await benchSender(app);
  const route = routes.find((r) => r.method === 'POST' && r.path === '/me/transfers')!;
  const handler = await createHandlerLoader(FUNCTIONS_DIR)(route.handler);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${sender.accessToken}` };
  const rawHeaders = Object.entries(headers).flat();
  const ctx = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;

  const viaGateway = async () => {
    const res = await fetch(`${app.apiOrigin}/api/me/transfers`, { method: 'POST', headers, body: BODY });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`gateway answered ${res.status}`);
  };
  const inProcess = async () => {
    const event = buildEvent(
      {
        method: 'POST',
        url: '/api/me/transfers',
        rawHeaders,
        body: Buffer.from(BODY),
        sourceIp: '127.0.0.1',
        host: 'bench',
      },
      route,
      {},
      { sub: sender.sub, token_use: 'access' },
    );
    const r = (await handler(event, ctx)) as { statusCode: number };
    if (r.statusCode !== 201) throw new Error(`handler answered ${r.statusCode}`);
  };

  const [gateway, direct] = await alternateRounds(viaGateway, inProcess, opts);
  const g = medianOf(gateway);
  const d = medianOf(direct);
  const ratios = {
    p50GatewayOverInProcess: g.p50Ms / d.p50Ms,
    p99GatewayOverInProcess: g.p99Ms / d.p99Ms,
    throughputGatewayOverInProcess: g.requestsPerSecond / d.requestsPerSecond,
  };
  return {
    name: 'create-transfer',
    description:
      'POST /api/me/transfers (5 files, one multipart; a business account) at 50 concurrent clients through the local gateway vs in-process; medians of alternating rounds',
    parameters: opts,
    gateway: { ...g, rounds: gateway },
    inProcess: { ...d, rounds: direct },
    ratios,
    summary: { gateway: g, inProcess: d, ratios },
  };
}
