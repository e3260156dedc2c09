import { randomBytes } from 'node:crypto';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../local/app';
import { createSignedInUser } from '../local/users';
import { dynamo } from '../local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import { LIST_FILTERS, type ListFilter } from '../../functions/domain/dashboard-api';
import { alternateRounds, medianOf } from './gateway-overhead';

const DAY = 86_400_000;
const SLUG_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const slug = () => Array.from(randomBytes(7), (b) => SLUG_CHARS[b % SLUG_CHARS.length]).join('');

/**
 * `n` sent transfers of one sender written straight into DynamoDB Local, shaped exactly as
 * markSent / the sweep leave them (data/transfers.ts): a fifth expired (swept), two in three of the
 * rest downloaded, expiries spread over the next 30 days, plus the counters item.
 */
async function seedTransfers(table: string, userId: string, n: number, now: number): Promise<void> {
  const items: Record<string, unknown>[] = [];
  let expired = 0;
  for (let i = 0; i < n; i += 1) {
    const s = slug();
    const createdAt = now - (n - i) * 60_000;
    const isExpired = i % 5 === 0;
    const expiryDate = isExpired ? now - DAY - i : now + ((i * 7919) % (30 * DAY));
    const totalDownloads = isExpired || i % 3 !== 0 ? 1 + (i % 4) : 0;
    if (isExpired) expired += 1;
    items.push({
      ...keys.transfer(s),
      entity: 'Transfer',
      slug: s,
      status: isExpired ? 'expired' : 'ready',
      region: 'hongkong',
      anon: false,
      sendAs: i % 2 ? 'email' : 'link',
      senderId: userId,
      senderEmail: 'bench@example.com',
      message: '',
      lang: 'en',
      recipients: i % 2 ? [{ email: `r${i}@example.com`, recipientId: 'AbCdEfGh' }] : [],
      shareWith: [],
      uploadTokenHash: 'x',
      uploadTokenExpiresAt: createdAt,
      fileCount: 1 + (i % 9),
      totalBytes: 1_000_000 + i,
      createdAt,
      dateSent: createdAt,
      expirySeconds: 604800,
      expiryDate,
      totalDownloads,
      fileName: `file-${i}.pdf`,
      searchText: `file-${i}.pdf\n`,
      ...keys.userTransfers(userId, createdAt, s),
      ...keys.transferList(userId, isExpired ? 'ENDED' : 'LIVE', expiryDate, s),
      ...(!isExpired && totalDownloads === 0 ? keys.unseenTransfer(userId, expiryDate, s) : {}),
    });
  }
  for (let i = 0; i < items.length; i += 25) {
    let batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (batch.length) {
      const out = await dynamo().send(new BatchWriteCommand({ RequestItems: { [table]: batch } }));
      batch = (out.UnprocessedItems?.[table] ?? []) as typeof batch;
    }
  }
  await dynamo().send(
    new PutCommand({
      TableName: table,
      Item: { ...keys.transferStats(userId), entity: 'TransferStats', all: n, expired },
    }),
  );
}

/**
 * GET /api/getQs: the first page and the counts for a sender with 1,000 and one with
 * 10,000 transfers, every filter, through the local gateway, in alternating rounds. The goal:
 * 10,000 costs no more than 1.5× 1,000 (pages and counts are Queries bounded by the page, not
 * by the number of transfers).
 */
export async function benchGetQs(
  app: LocalApp,
  opts = { rounds: 5, requests: 100, concurrency: 4, sizes: [1000, 10000] as const },
) {
  const table = app.stack.env.TABLE_NAME!;
  const now = Date.now();
  const users = [] as { n: number; token: string }[];
  for (const n of opts.sizes) {
    const u = await createSignedInUser(app, `bench-getqs-${n}-${Date.now()}@example.com`, {
      role: 'business',
      password: 'bench-secret-1',
    });
    const t0 = performance.now();
    await seedTransfers(table, u.sub, n, now);
    console.log(`  seeded ${n} transfers in ${Math.round(performance.now() - t0)} ms`);
    users.push({ n, token: u.accessToken });
  }
  const call = (token: string, filter: ListFilter) => async () => {
    const res = await fetch(`${app.apiOrigin}/api/getQs?filter=${filter}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { allDocs?: unknown[] };
    if (res.status !== 200 || !body.allDocs) throw new Error(`getQs answered ${res.status}`);
  };
  const byFilter: Record<string, unknown> = {};
  const summary: Record<string, unknown> = {};
  for (const filter of LIST_FILTERS) {
    const [small, large] = await alternateRounds(call(users[0]!.token, filter), call(users[1]!.token, filter), opts);
    const s = medianOf(small);
    const l = medianOf(large);
    const ratios = { p50: l.p50Ms / s.p50Ms, p99: l.p99Ms / s.p99Ms };
    byFilter[filter] = { [opts.sizes[0]]: { ...s, rounds: small }, [opts.sizes[1]]: { ...l, rounds: large }, ratios };
    summary[filter] = {
      [`p50Ms_${opts.sizes[0]}`]: s.p50Ms,
      [`p50Ms_${opts.sizes[1]}`]: l.p50Ms,
      [`p99Ms_${opts.sizes[0]}`]: s.p99Ms,
      [`p99Ms_${opts.sizes[1]}`]: l.p99Ms,
      ratioP50: ratios.p50,
      ratioP99: ratios.p99,
    };
  }
  return {
    name: 'get-qs',
    description: `GET /api/getQs first page + counts per filter, a sender with ${opts.sizes[0]} vs ${opts.sizes[1]} transfers, ${opts.concurrency} concurrent clients through the local gateway; medians of alternating rounds; goal ratio <= 1.5`,
    parameters: opts,
    byFilter,
    summary,
  };
}
