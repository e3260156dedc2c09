import { describe, expect, it } from 'vitest';
import { ANALYTICS_MAX_DAYS } from '../../../functions/domain/dashboard-api';
import {
  bucketOf,
  bucketStarts,
  checkRange,
  dayStart,
  decodeCursor,
  encodeCursor,
  readPlan,
  summarise,
} from '../../../functions/services/analytics';
import { downloadLogBounds } from '../../../functions/data/analytics';
import { HttpError } from '../../../functions/lib/errors';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof HttpError ? `${err.statusCode} ${err.code}` : String(err);
  }
  return undefined;
}

describe('analytics ranges', () => {
  it('accepts calendar days only', () => {
    expect(dayStart('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(codeOf(() => dayStart('2025-02-29'))).toBe('400 invalid_date');
    expect(codeOf(() => dayStart('2025-13-01'))).toBe('400 invalid_date');
    expect(codeOf(() => dayStart('2025-1-01'))).toBe('400 invalid_date');
  });

  it('counts both ends and refuses reversed or too long ranges', () => {
    expect(checkRange('2025-01-01', '2025-01-01')).toEqual({
      fromMs: Date.UTC(2025, 0, 1),
      toMs: Date.UTC(2025, 0, 2) - 1,
      days: 1,
    });
    expect(checkRange('2025-01-01', '2025-12-31').days).toBe(365);
    expect(codeOf(() => checkRange('2025-01-02', '2025-01-01'))).toBe('400 invalid_range');
    const from = Date.UTC(2024, 0, 1);
    const lastAllowed = new Date(from + (ANALYTICS_MAX_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const oneMore = new Date(from + ANALYTICS_MAX_DAYS * 86_400_000).toISOString().slice(0, 10);
    expect(checkRange('2024-01-01', lastAllowed).days).toBe(ANALYTICS_MAX_DAYS);
    expect(codeOf(() => checkRange('2024-01-01', oneMore))).toBe('400 range_too_long');
  });
});

describe('buckets', () => {
  it('puts a day in its day, its ISO week (Monday) and its month', () => {
    // 2025-03-02 is a Sunday: its ISO week started on Monday 2025-02-24.
    expect(bucketOf('2025-03-02', 'day')).toBe('2025-03-02');
    expect(bucketOf('2025-03-02', 'week')).toBe('2025-02-24');
    expect(bucketOf('2025-03-03', 'week')).toBe('2025-03-03');
    expect(bucketOf('2025-03-02', 'month')).toBe('2025-03-01');
    // across a year boundary: Thursday 2026-01-01 belongs to the week of Monday 2025-12-29
    expect(bucketOf('2026-01-01', 'week')).toBe('2025-12-29');
  });

  it('lists every bucket of a range, the first one holding `from`', () => {
    expect(bucketStarts('2025-01-30', '2025-02-02', 'day')).toEqual([
      '2025-01-30',
      '2025-01-31',
      '2025-02-01',
      '2025-02-02',
    ]);
    expect(bucketStarts('2025-03-02', '2025-03-17', 'week')).toEqual([
      '2025-02-24',
      '2025-03-03',
      '2025-03-10',
      '2025-03-17',
    ]);
    expect(bucketStarts('2024-11-15', '2025-02-01', 'month')).toEqual([
      '2024-11-01',
      '2024-12-01',
      '2025-01-01',
      '2025-02-01',
    ]);
    expect(bucketStarts('2025-01-01', '2025-12-31', 'day')).toHaveLength(365);
    expect(bucketStarts('2024-03-31', '2024-04-01', 'day')).toEqual(['2024-03-31', '2024-04-01']);
  });
});

describe('summarise day counters', () => {
  const items = [
    {
      sk: 'DAY#2025-03-01',
      day: '2025-03-01',
      downloads: 3,
      'c#DE': 2,
      'c#JP': 1,
      't#AAAAAAA': 2,
      't#BBBBBBB': 1,
      recipients: new Set(['a@x.com', 'b@x.com']),
    },
    {
      sk: 'DAY#2025-03-03',
      day: '2025-03-03',
      downloads: 2,
      'c#BR': 1,
      'c#DE': 1,
      't#BBBBBBB': 2,
      recipients: new Set(['b@x.com', 'c@x.com']),
    },
    { sk: 'DAY#2025-03-20', day: '2025-03-20', downloads: 1, 'c#XX': 1, 't#CCCCCCC': 1 },
  ];

  it('sums per bucket with zeros, per country and per transfer, and counts distinct recipients', () => {
    const s = summarise(items, '2025-03-01', '2025-03-04', 'day');
    expect(s.series).toEqual([
      { start: '2025-03-01', downloads: 3 },
      { start: '2025-03-02', downloads: 0 },
      { start: '2025-03-03', downloads: 2 },
      { start: '2025-03-04', downloads: 0 },
    ]);
    expect(s.totalDownloads).toBe(5);
    expect(s.countries).toEqual([
      { countryCode: 'DE', downloads: 3 },
      { countryCode: 'BR', downloads: 1 },
      { countryCode: 'JP', downloads: 1 },
    ]);
    expect(s.transfers).toEqual([
      { slug: 'BBBBBBB', downloads: 3 },
      { slug: 'AAAAAAA', downloads: 2 },
    ]);
    expect(s.uniqueRecipients).toBe(3);
  });

  it('counts a month item on each of its days, beside day items', () => {
    const month = {
      sk: 'MSTATS#2025-02',
      month: '2025-02',
      downloads: 4,
      'd#03': 1,
      'd#28': 3,
      'c#DE': 4,
      't#AAAAAAA': 4,
      recipients: new Set(['a@x.com', 'z@x.com']),
    };
    const s = summarise([month, ...items], '2025-02-01', '2025-03-04', 'week');
    expect(s.series).toEqual([
      { start: '2025-01-27', downloads: 0 },
      { start: '2025-02-03', downloads: 1 },
      { start: '2025-02-10', downloads: 0 },
      { start: '2025-02-17', downloads: 0 },
      { start: '2025-02-24', downloads: 6 },
      { start: '2025-03-03', downloads: 2 },
    ]);
    expect(s.totalDownloads).toBe(9);
    expect(s.countries[0]).toEqual({ countryCode: 'DE', downloads: 7 });
    expect(s.transfers[0]).toEqual({ slug: 'AAAAAAA', downloads: 6 });
    expect(s.uniqueRecipients).toBe(4);
  });

  it('groups by ISO week and by month', () => {
    expect(summarise(items, '2025-03-01', '2025-03-31', 'week').series).toEqual([
      { start: '2025-02-24', downloads: 3 },
      { start: '2025-03-03', downloads: 2 },
      { start: '2025-03-10', downloads: 0 },
      { start: '2025-03-17', downloads: 1 },
      { start: '2025-03-24', downloads: 0 },
      { start: '2025-03-31', downloads: 0 },
    ]);
    expect(summarise(items, '2025-02-01', '2025-03-31', 'month').series).toEqual([
      { start: '2025-02-01', downloads: 0 },
      { start: '2025-03-01', downloads: 6 },
    ]);
  });
});

describe('which counters a range reads', () => {
  it('whole months from month items, the partial months at the ends from day items', () => {
    expect(readPlan('2025-01-15', '2025-12-31')).toEqual({
      months: ['2025-02', '2025-12'],
      days: [['2025-01-15', '2025-01-31']],
    });
    expect(readPlan('2025-01-01', '2025-03-10')).toEqual({
      months: ['2025-01', '2025-02'],
      days: [['2025-03-01', '2025-03-10']],
    });
    expect(readPlan('2024-11-26', '2025-11-25')).toEqual({
      months: ['2024-12', '2025-10'],
      days: [
        ['2024-11-26', '2024-11-30'],
        ['2025-11-01', '2025-11-25'],
      ],
    });
    expect(readPlan('2024-02-01', '2024-02-29')).toEqual({ months: ['2024-02', '2024-02'], days: [] });
  });

  it('only day items when the range holds no whole month', () => {
    expect(readPlan('2025-03-05', '2025-03-20')).toEqual({ days: [['2025-03-05', '2025-03-20']] });
    expect(readPlan('2025-01-15', '2025-02-14')).toEqual({ days: [['2025-01-15', '2025-02-14']] });
    expect(readPlan('2025-02-01', '2025-02-27')).toEqual({ days: [['2025-02-01', '2025-02-27']] });
  });
});

describe('export cursors', () => {
  const bounds = downloadLogBounds('user-a', Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 31));
  const key = {
    pk: 'USER#user-a',
    sk: `DLOG#${String(Date.UTC(2025, 0, 10)).padStart(15, '0')}#0190b6a0-0000-7000-8000-000000000000`,
  };

  it('round-trips a key of the caller inside the range', () => {
    expect(decodeCursor(encodeCursor(key), bounds)).toEqual(key);
  });

  it('refuses another user, another range, extra fields and junk', () => {
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    expect(codeOf(() => decodeCursor(encodeCursor({ ...key, pk: 'USER#user-b' }), bounds))).toBe('400 invalid_cursor');
    expect(codeOf(() => decodeCursor(encodeCursor({ ...key, sk: 'DAY#2025-01-10' }), bounds))).toBe(
      '400 invalid_cursor',
    );
    expect(
      codeOf(() =>
        decodeCursor(encodeCursor({ ...key, sk: `DLOG#${String(Date.UTC(2025, 1, 10)).padStart(15, '0')}#x` }), bounds),
      ),
    ).toBe('400 invalid_cursor');
    expect(codeOf(() => decodeCursor(enc({ ...key, gsi1pk: 'x' }), bounds))).toBe('400 invalid_cursor');
    expect(codeOf(() => decodeCursor(enc([key.pk, key.sk]), bounds))).toBe('400 invalid_cursor');
    expect(codeOf(() => decodeCursor(enc({ pk: key.pk, sk: 5 }), bounds))).toBe('400 invalid_cursor');
    expect(codeOf(() => decodeCursor('not base64!', bounds))).toBe('400 invalid_cursor');
    expect(codeOf(() => decodeCursor(Buffer.from('{"pk":').toString('base64url'), bounds))).toBe('400 invalid_cursor');
  });
});
