/**
 * Analytics end to end ("analytics counters after downloads from three countries"):
 * real downloads through the local gateway from DE, JP and BR, by recipients' own links and the
 * plain link, maintain the sender's day counters; GET /analytics sums them into day / week /
 * month buckets, countries, top transfers and unique recipients; GET /analytics/downloads pages
 * the rows for the CSV export behind a cursor that cannot be tampered with or carried to another
 * user. Bad ranges are 400s with codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchWriteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import {
  ANALYTICS_MAX_DAYS,
  DOWNLOAD_ROWS_PAGE,
  type AnalyticsResponse,
  type DownloadRowsPage,
} from '../../functions/domain/dashboard-api';
import { keys } from '../../functions/data/keys';
import { RECIPIENT_SET_CAP, downloadTransaction } from '../../functions/data/download-events';
import { eventIdAt } from '../../functions/data/notifications';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  createUser,
  json,
  randomData,
  recipientIdsOf as recipientIdsOfAt,
  sendFiles,
  type TestUser,
} from '../helpers/transfers';

const DAY = 86_400_000;
let app: LocalApp;
let carol: TestUser;
let dave: TestUser;
let report: CreateTransferResponse;
let photos: CreateTransferResponse;
let rid: Map<string, string>;
const table = () => app.stack.env.TABLE_NAME!;
const today = () => new Date().toISOString().slice(0, 10);
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

function sendByEmail(user: TestUser, files: Record<string, Buffer>, to: string[]): Promise<CreateTransferResponse> {
  return sendFiles(app, user, new Map(Object.entries(files)), {
    sendAs: 'email',
    emailTo: to.map((email) => ({ email })),
  });
}

const recipientIdsOf = (slug: string) => recipientIdsOfAt(app, slug);

async function download(t: CreateTransferResponse, fileName: string, country: string, recipient?: string) {
  const fileId = t.files.find((f) => f.fileName === fileName)!.fileId;
  const res = await api(app, '/getDownload/file', {
    ...json({ id: t.id, fileId, ...(recipient ? { recipient } : {}) }),
    headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': country },
  });
  expect(res.status, res.text).toBe(200);
}

async function analytics(user: TestUser, query: string) {
  return api(app, `/analytics?${query}`, { headers: bearer(user) });
}

beforeAll(async () => {
  app = await startTestApp();
  carol = await createUser(app, 'carol.analyst@example.com');
  dave = await createUser(app, 'dave.other@example.com');
  report = await sendByEmail(carol, { 'annual-report.pdf': randomData(100), 'figures.csv': randomData(50) }, [
    'ann@example.com',
    'ben@example.com',
    'cat@example.com',
  ]);
  photos = await sendByEmail(carol, { 'holiday-photos.zip': randomData(80) }, ['ann@example.com']);
  rid = await recipientIdsOf(report.id);
  const photoRid = await recipientIdsOf(photos.id);
  // Three countries, two recipients of `report` by their own links, one plain-link download, and `photos` by ann too.
  await download(report, 'annual-report.pdf', 'DE', rid.get('ann@example.com'));
  await download(report, 'figures.csv', 'DE', rid.get('ann@example.com'));
  await download(report, 'annual-report.pdf', 'JP', rid.get('ben@example.com'));
  await download(report, 'annual-report.pdf', 'BR');
  await download(photos, 'holiday-photos.zip', 'BR', photoRid.get('ann@example.com'));
});

afterAll(async () => {
  await app?.stop();
});

describe('GET /analytics after real downloads from DE, JP and BR', () => {
  it('counts per country, top transfers by name, unique recipients and the total', async () => {
    const res = await analytics(carol, `from=${today()}&to=${today()}`);
    expect(res.status, res.text).toBe(200);
    const a = res.json as AnalyticsResponse;
    expect(a).toMatchObject({ from: today(), to: today(), interval: 'day', totalDownloads: 5, uniqueRecipients: 2 });
    expect(a.series).toEqual([{ start: today(), downloads: 5 }]);
    expect(a.countries).toEqual([
      { countryCode: 'BR', downloads: 2 },
      { countryCode: 'DE', downloads: 2 },
      { countryCode: 'JP', downloads: 1 },
    ]);
    expect(a.topTransfers).toEqual([
      { slug: report.id, fileName: 'annual-report.pdf', downloads: 4 },
      { slug: photos.id, fileName: 'holiday-photos.zip', downloads: 1 },
    ]);
  });

  it("is the caller's alone: another user sees zeros", async () => {
    const res = await analytics(dave, `from=${today()}&to=${today()}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      totalDownloads: 0,
      countries: [],
      topTransfers: [],
      uniqueRecipients: 0,
      series: [{ start: today(), downloads: 0 }],
    });
    expect(res.text).not.toContain('annual-report');
  });

  describe('over several days', () => {
    const now = Date.now();
    const past = [now - 3 * DAY, now - 40 * DAY];

    beforeAll(async () => {
      // Two earlier downloads recorded by the same transaction a download makes (the only way to date one in the past).
      for (const [i, at] of past.entries()) {
        await dynamo().send(
          new TransactWriteCommand({
            TransactItems: downloadTransaction(
              { slug: photos.id, senderId: carol.sub },
              {
                at,
                id: eventIdAt(at),
                countryCode: 'JP',
                countryName: 'Japan',
                fileName: 'holiday-photos.zip',
                origin: 'file',
                ...(i === 1 ? { recipientEmail: 'dan@example.com' } : {}),
              },
            ),
          }),
        );
      }
    });

    it('day buckets: one per day with zeros, summing to the total', async () => {
      const from = dayOf(now - 45 * DAY);
      const a = (await analytics(carol, `from=${from}&to=${today()}&interval=day`)).json as AnalyticsResponse;
      expect(a.series).toHaveLength(46);
      expect(a.series[0]!.start).toBe(from);
      expect(a.series.at(-1)).toEqual({ start: today(), downloads: 5 });
      expect(a.series.find((b) => b.start === dayOf(past[0]!))?.downloads).toBe(1);
      expect(a.series.find((b) => b.start === dayOf(past[1]!))?.downloads).toBe(1);
      expect(a.series.filter((b) => b.downloads === 0)).toHaveLength(43);
      expect(a.totalDownloads).toBe(7);
      expect(a.countries[0]).toEqual({ countryCode: 'JP', downloads: 3 });
      expect(a.topTransfers).toEqual([
        { slug: report.id, fileName: 'annual-report.pdf', downloads: 4 },
        { slug: photos.id, fileName: 'holiday-photos.zip', downloads: 3 },
      ]);
      expect(a.uniqueRecipients).toBe(3);
    });

    it('week buckets start on Mondays, month buckets on the first, zeros included', async () => {
      const from = dayOf(now - 45 * DAY);
      const weeks = (await analytics(carol, `from=${from}&to=${today()}&interval=week`)).json as AnalyticsResponse;
      for (const b of weeks.series) expect(new Date(`${b.start}T00:00:00Z`).getUTCDay(), b.start).toBe(1);
      expect(weeks.series[0]!.start <= from).toBe(true);
      expect(Date.parse(from) - Date.parse(weeks.series[0]!.start)).toBeLessThan(7 * DAY);
      for (let i = 1; i < weeks.series.length; i += 1)
        expect(Date.parse(weeks.series[i]!.start) - Date.parse(weeks.series[i - 1]!.start)).toBe(7 * DAY);
      expect(weeks.series.reduce((s, b) => s + b.downloads, 0)).toBe(7);
      expect(weeks.series.some((b) => b.downloads === 0)).toBe(true);

      const months = (await analytics(carol, `from=${from}&to=${today()}&interval=month`)).json as AnalyticsResponse;
      for (const b of months.series) expect(b.start.endsWith('-01'), b.start).toBe(true);
      expect(months.series[0]!.start).toBe(`${from.slice(0, 7)}-01`);
      expect(months.series.at(-1)!.start).toBe(`${today().slice(0, 7)}-01`);
      expect(months.series.reduce((s, b) => s + b.downloads, 0)).toBe(7);
      expect(
        months.series.find((b) => b.start === `${dayOf(past[1]!).slice(0, 7)}-01`)!.downloads,
      ).toBeGreaterThanOrEqual(1);
    });

    it('a range leaves out the days outside it', async () => {
      const a = (await analytics(carol, `from=${dayOf(now - 41 * DAY)}&to=${dayOf(now - 2 * DAY)}`))
        .json as AnalyticsResponse;
      expect(a.totalDownloads).toBe(2);
      expect(a.countries).toEqual([{ countryCode: 'JP', downloads: 2 }]);
      expect(a.uniqueRecipients).toBe(1);
    });
  });

  it('a deleted transfer still shows under its name', async () => {
    const gone = await sendByEmail(carol, { 'withdrawn-draft.docx': randomData(20) }, ['ann@example.com']);
    await download(gone, 'withdrawn-draft.docx', 'FR', (await recipientIdsOf(gone.id)).get('ann@example.com'));
    const del = await api(app, `/transfers/${gone.id}`, { method: 'DELETE', headers: bearer(carol) });
    expect(del.status, del.text).toBe(200);
    const a = (await analytics(carol, `from=${today()}&to=${today()}`)).json as AnalyticsResponse;
    expect(a.topTransfers).toContainEqual({ slug: gone.id, fileName: 'withdrawn-draft.docx', downloads: 1 });
    expect(a.countries).toContainEqual({ countryCode: 'FR', downloads: 1 });
  });
});

describe(`a month whose recipient set is full (${RECIPIENT_SET_CAP})`, () => {
  it('still records the download (counts, notification, CSV row), only the full set stops growing', async () => {
    const erin = await createUser(app, 'erin.popular@example.com');
    const t = await sendByEmail(erin, { 'newsletter.pdf': randomData(30) }, ['fan@example.com']);
    // This month's counters with a full recipient set.
    const month = today().slice(0, 7);
    const full = RECIPIENT_SET_CAP;
    const tokens = new Set(Array.from({ length: full }, (_, i) => `r${String(i).padStart(9, '0')}`));
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...keys.monthStats(erin.sub, month), entity: 'MonthStats', month, downloads: full, recipients: tokens },
      }),
    );
    await download(t, 'newsletter.pdf', 'CA', (await recipientIdsOf(t.id)).get('fan@example.com'));
    const meta = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.transfer(t.id) }));
    expect(meta.Item!.totalDownloads).toBe(1);
    const notes = await api(app, '/notifications', json({}, bearer(erin)));
    expect(notes.json.notifications).toEqual([
      expect.objectContaining({ slug: t.id, receiverEmail: 'fan@example.com', dlCountryCode: 'CA' }),
    ]);
    const a = (await analytics(erin, `from=${today()}&to=${today()}`)).json as AnalyticsResponse;
    // the day's own set was not full: the recipient counts there
    expect(a).toMatchObject({
      totalDownloads: 1,
      countries: [{ countryCode: 'CA', downloads: 1 }],
      uniqueRecipients: 1,
    });
    const rows = (await api(app, `/analytics/downloads?from=${today()}&to=${today()}`, { headers: bearer(erin) }))
      .json as DownloadRowsPage;
    expect(rows.rows).toEqual([
      expect.objectContaining({ slug: t.id, receiverEmail: 'fan@example.com', countryCode: 'CA' }),
    ]);
    const monthItem = await dynamo().send(
      new GetCommand({ TableName: table(), Key: keys.monthStats(erin.sub, month) }),
    );
    expect((monthItem.Item!.recipients as Set<string>).size).toBe(full);
    expect(monthItem.Item!['c#CA']).toBe(1);
  });
});

describe('bad ranges are refused with a code', () => {
  it.each([
    ['to before from', 'from=2025-03-02&to=2025-03-01', 'invalid_range'],
    [`more than ${ANALYTICS_MAX_DAYS} days`, 'from=2023-01-01&to=2025-12-31', 'range_too_long'],
    ['a day that does not exist', 'from=2025-02-29&to=2025-03-01', 'invalid_date'],
    ['not a date', 'from=yesterday&to=2025-03-01', 'invalid_request'],
    ['no range', '', 'invalid_request'],
    ['an unknown interval', 'from=2025-03-01&to=2025-03-02&interval=year', 'invalid_request'],
  ])('%s', async (_, query, code) => {
    for (const path of ['/analytics', '/analytics/downloads']) {
      if (path === '/analytics/downloads' && query.includes('interval')) continue;
      const res = await api(app, `${path}?${query}`, { headers: bearer(carol) });
      expect(res.status, `${path}?${query} ${res.text}`).toBe(400);
      expect(res.json.error.code).toBe(code);
    }
  });

  it('needs a signed-in user', async () => {
    expect((await api(app, `/analytics?from=${today()}&to=${today()}`)).status).toBe(401);
    expect((await api(app, `/analytics/downloads?from=${today()}&to=${today()}`)).status).toBe(401);
  });
});

describe('GET /analytics/downloads: the CSV export rows', () => {
  it('lists the real downloads with country names and recipients, oldest first', async () => {
    const res = await api(app, `/analytics/downloads?from=${today()}&to=${today()}`, { headers: bearer(carol) });
    expect(res.status, res.text).toBe(200);
    const page = res.json as DownloadRowsPage;
    expect(page.cursor).toBeUndefined();
    expect(page.rows.slice(0, 5)).toEqual([
      expect.objectContaining({
        slug: report.id,
        fileName: 'annual-report.pdf',
        dlOrigin: 'file',
        countryCode: 'DE',
        country_name: 'Germany',
        receiverEmail: 'ann@example.com',
      }),
      expect.objectContaining({
        slug: report.id,
        fileName: 'figures.csv',
        countryCode: 'DE',
        receiverEmail: 'ann@example.com',
      }),
      expect.objectContaining({
        slug: report.id,
        countryCode: 'JP',
        country_name: 'Japan',
        receiverEmail: 'ben@example.com',
      }),
      expect.objectContaining({ slug: report.id, countryCode: 'BR', country_name: 'Brazil' }),
      expect.objectContaining({ slug: photos.id, countryCode: 'BR', receiverEmail: 'ann@example.com' }),
    ]);
    expect(page.rows[3]).not.toHaveProperty('receiverEmail');
    const dates = page.rows.map((r) => r.dlDate);
    expect(dates).toEqual([...dates].sort((x, y) => x - y));
  });

  describe('paging', () => {
    const base = Date.UTC(2025, 5, 10, 12);
    const total = DOWNLOAD_ROWS_PAGE + 7;
    let first: DownloadRowsPage;

    beforeAll(async () => {
      // dave's log: more rows than a page (written directly, as the transaction writes them)
      const items = Array.from({ length: total }, (_, i) => ({
        ...keys.downloadLog(dave.sub, base + i * 1000, eventIdAt(base + i * 1000)),
        entity: 'DownloadLog',
        dlDate: base + i * 1000,
        slug: 'DaveXYZ',
        fileName: `row-${i}.bin`,
        dlOrigin: 'file',
        countryCode: 'KR',
        country_name: 'South Korea',
      }));
      for (let i = 0; i < items.length; i += 25) {
        await dynamo().send(
          new BatchWriteCommand({
            RequestItems: { [table()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
          }),
        );
      }
      const res = await api(app, '/analytics/downloads?from=2025-06-10&to=2025-06-10', { headers: bearer(dave) });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      first = res.json as DownloadRowsPage;
    });

    it(`gives ${DOWNLOAD_ROWS_PAGE} rows and a cursor, then the rest without one`, async () => {
      expect(first.rows).toHaveLength(DOWNLOAD_ROWS_PAGE);
      expect(first.rows[0]!.fileName).toBe('row-0.bin');
      expect(first.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      const next = await api(app, `/analytics/downloads?from=2025-06-10&to=2025-06-10&cursor=${first.cursor}`, {
        headers: bearer(dave),
      });
      expect(next.status, next.text).toBe(200);
      const second = next.json as DownloadRowsPage;
      expect(second.rows.map((r) => r.fileName)).toEqual(
        Array.from({ length: total - DOWNLOAD_ROWS_PAGE }, (_, i) => `row-${DOWNLOAD_ROWS_PAGE + i}.bin`),
      );
      expect(second.cursor).toBeUndefined();
    });

    it("refuses a tampered cursor, another user's cursor, and one outside the range (400 invalid_cursor)", async () => {
      const decoded = JSON.parse(Buffer.from(first.cursor!, 'base64url').toString('utf8')) as {
        pk: string;
        sk: string;
      };
      const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const tries = [
        `${first.cursor!.slice(0, -2)}xx`,
        'e30',
        enc({ ...decoded, pk: `USER#${carol.sub}` }),
        enc({ ...decoded, sk: keys.dayStats(dave.sub, '2025-06-10').sk }),
        enc({ ...decoded, extra: 1 }),
        '%%%',
      ];
      for (const cursor of tries) {
        const res = await api(
          app,
          `/analytics/downloads?from=2025-06-10&to=2025-06-10&cursor=${encodeURIComponent(cursor)}`,
          { headers: bearer(dave) },
        );
        expect(res.status, `${cursor}: ${res.text.slice(0, 200)}`).toBe(400);
        expect(res.text).not.toContain('annual-report');
      }
      // dave's own cursor used by carol: refused, and nothing of dave's is read
      const carols = await api(app, `/analytics/downloads?from=2025-06-10&to=2025-06-10&cursor=${first.cursor}`, {
        headers: bearer(carol),
      });
      expect(carols.status).toBe(400);
      expect(carols.json.error.code).toBe('invalid_cursor');
      expect(carols.text).not.toContain('row-');
      // the same cursor on another range
      const other = await api(app, `/analytics/downloads?from=2025-06-11&to=2025-06-12&cursor=${first.cursor}`, {
        headers: bearer(dave),
      });
      expect(other.json.error.code).toBe('invalid_cursor');
    });
  });
});
