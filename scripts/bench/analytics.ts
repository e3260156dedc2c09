import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../local/app';
import { createSignedInUser } from '../local/users';
import { dynamo } from '../local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import { countryAttr, dayAttr, recipientToken, transferAttr, utcDayOf } from '../../functions/data/download-events';
import { percentile } from './machine';

const DAY = 86_400_000;
/** ~40 countries, most downloads from the first ones (Zipf-like weights). */
const COUNTRIES =
  'US DE GB FR JP CN IN BR CA AU IT ES NL KR MX SE CH PL BE AT TR RU ID SG HK TW DK NO FI IE PT CZ IL AE ZA AR CL NZ TH VN'.split(
    ' ',
  );

/** A seeded generator, so every run seeds the same data. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An index in [0, n) drawn with weights 1/(i+1). */
function zipf(n: number, rnd: () => number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i += 1) {
    sum += 1 / (i + 1);
    cumulative.push(sum);
  }
  return () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

async function batchPut(table: string, items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (batch.length) {
      const out = await dynamo().send(new BatchWriteCommand({ RequestItems: { [table]: batch } }));
      batch = (out.UnprocessedItems?.[table] ?? []) as typeof batch;
    }
  }
}

/**
 * The counter items (and transfer items) that `downloads` recorded downloads over `days` days
 * would have left, exactly as data/download-events.ts's transaction writes them: per UTC day and
 * per month `downloads`, `c#<country>`, `t#<slug>` and the `recipients` set of hashed addresses,
 * and on the month `d#<dd>`. Downloads are drawn
 * at random (seeded): transfers and countries Zipf-like, 70 % through a recipient's own link
 * (2,000 recipient addresses), the rest through the plain link.
 */
export async function seedDownloads(
  table: string,
  userId: string,
  o: { downloads: number; days: number; transfers: number; recipients: number },
  now: number,
) {
  const rnd = mulberry32(12);
  const slugs = Array.from({ length: o.transfers }, (_, i) => `B${String(i).padStart(6, '0')}`);
  const pickTransfer = zipf(o.transfers, rnd);
  const pickCountry = zipf(COUNTRIES.length, rnd);
  type Counters = { downloads: number; counters: Map<string, number>; recipients: Set<string> };
  const days = new Map<string, Counters>();
  const months = new Map<string, Counters>();
  const counted = (m: Map<string, Counters>, k: string) => {
    let c = m.get(k);
    if (!c) {
      c = { downloads: 0, counters: new Map(), recipients: new Set() };
      m.set(k, c);
    }
    return c;
  };
  for (let i = 0; i < o.downloads; i += 1) {
    const day = utcDayOf(now - Math.floor(rnd() * o.days) * DAY);
    const attrs = [countryAttr(COUNTRIES[pickCountry()]!), transferAttr(slugs[pickTransfer()]!)];
    const recipient =
      rnd() < 0.7 ? recipientToken(`recipient-${Math.floor(rnd() * o.recipients)}@example.com`) : undefined;
    for (const [c, extra] of [
      [counted(days, day), []],
      [counted(months, day.slice(0, 7)), [dayAttr(day)]],
    ] as const) {
      c.downloads += 1;
      for (const attr of [...attrs, ...extra]) c.counters.set(attr, (c.counters.get(attr) ?? 0) + 1);
      if (recipient) c.recipients.add(recipient);
    }
  }
  const itemOf = (key: { pk: string; sk: string }, c: Counters, extra: Record<string, unknown>) => ({
    ...key,
    ...extra,
    downloads: c.downloads,
    ...Object.fromEntries(c.counters),
    ...(c.recipients.size ? { recipients: c.recipients } : {}),
  });
  const counterItems = [
    ...[...days].map(([day, c]) => itemOf(keys.dayStats(userId, day), c, { entity: 'DayStats', day })),
    ...[...months].map(([month, c]) => itemOf(keys.monthStats(userId, month), c, { entity: 'MonthStats', month })),
  ];
  const transferItems = slugs.map((s, i) => ({
    ...keys.transfer(s),
    entity: 'Transfer',
    slug: s,
    senderId: userId,
    status: 'ready',
    fileName: `project-file-${i}.mov`,
    fileCount: 1,
  }));
  await batchPut(table, [...counterItems, ...transferItems]);
  const bytes = counterItems.reduce(
    (s, item) => s + JSON.stringify(item, (_, v: unknown) => (v instanceof Set ? [...v] : v)).length,
    0,
  );
  return { dayItems: days.size, monthItems: months.size, approxCounterBytes: bytes };
}

/**
 * GET /api/analytics over a 365-day range for a sender with 100,000 recorded downloads (
 * "Analytics for a user with 100,000 recorded downloads: p50 under 300 ms locally"), through the
 * local gateway, one request at a time: p50 and p99 of `runs` requests after a warm-up, for each
 * interval. The page reads the whole months' month items and the edge months' day items (three
 * Queries in parallel) and one BatchGet of the top transfers, whatever the number of downloads.
 */
export async function benchAnalytics(
  app: LocalApp,
  opts = { downloads: 100_000, days: 365, transfers: 200, recipients: 2_000, runs: 20, warmup: 3 },
) {
  const table = app.stack.env.TABLE_NAME!;
  const now = Date.now();
  const user = await createSignedInUser(app, `bench-analytics-${now}@example.com`, {
    role: 'business',
    password: 'bench-secret-1',
  });
  const t0 = performance.now();
  const seeded = await seedDownloads(table, user.sub, opts, now);
  console.log(
    `  seeded ${opts.downloads} downloads as ${seeded.dayItems} day and ${seeded.monthItems} month items (~${Math.round(seeded.approxCounterBytes / 1024)} KiB) in ${Math.round(performance.now() - t0)} ms`,
  );
  const from = utcDayOf(now - (opts.days - 1) * DAY);
  const to = utcDayOf(now);
  const byInterval: Record<string, { p50Ms: number; p99Ms: number; minMs: number; maxMs: number; runsMs: number[] }> =
    {};
  for (const interval of ['day', 'week', 'month'] as const) {
    const call = async () => {
      const started = performance.now();
      const res = await fetch(`${app.apiOrigin}/api/analytics?from=${from}&to=${to}&interval=${interval}`, {
        headers: { authorization: `Bearer ${user.accessToken}` },
      });
      const body = (await res.json()) as { totalDownloads?: number };
      const ms = performance.now() - started;
      if (res.status !== 200 || body.totalDownloads !== opts.downloads)
        throw new Error(`analytics answered ${res.status} with ${body.totalDownloads} downloads`);
      return ms;
    };
    for (let i = 0; i < opts.warmup; i += 1) await call();
    const runsMs: number[] = [];
    for (let i = 0; i < opts.runs; i += 1) runsMs.push(await call());
    const sorted = [...runsMs].sort((a, b) => a - b);
    byInterval[interval] = {
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      minMs: sorted[0]!,
      maxMs: sorted.at(-1)!,
      runsMs,
    };
  }
  const summary = Object.fromEntries(
    Object.entries(byInterval).map(([k, v]) => [k, { p50Ms: Math.round(v.p50Ms), p99Ms: Math.round(v.p99Ms) }]),
  );
  return {
    name: 'analytics',
    description: `GET /api/analytics over ${opts.days} days for a sender with ${opts.downloads} recorded downloads (${opts.transfers} transfers, ${COUNTRIES.length} countries, ${opts.recipients} recipients), one request at a time through the local gateway; p50 / p99 of ${opts.runs} runs per interval after ${opts.warmup} warm-up; goal p50 < 300 ms`,
    parameters: { ...opts, countries: COUNTRIES.length },
    seeded,
    byInterval,
    summary: { ...summary, goalP50Ms: 300, met: Object.values(byInterval).every((v) => v.p50Ms < 300) },
  };
}
