import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'i18n-iso-countries';
import world from 'world-atlas/countries-110m.json';
import { describe, expect, it } from 'vitest';
import type { DownloadRow, DownloadRowsPage } from '@domain/dashboard-api';
import { MAX_EXPORT_PAGES, collectRows } from '@/features/analytics/analytics-api';
import { numericOf } from '@/features/analytics/country-codes';
import { buildCsv, csvCell, csvFileName, downloadsCsv } from '@/features/analytics/csv';
import { parseDay, presetOf, presetRange, rangeProblem } from '@/features/analytics/date-range';
import { SHADES, shadeOf } from '@/features/analytics/map-scale';
import {
  bucketLabel,
  bucketStart,
  bucketTick,
  bucketStarts,
  completeSeries,
  peak,
  toChartData,
} from '@/features/analytics/series';

describe('CSV cells', () => {
  it('leaves plain text alone', () => {
    expect(csvCell('report.pdf')).toBe('report.pdf');
    expect(csvCell('')).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('builds a BOM-led CRLF document', () => {
    expect(buildCsv(['a', 'b'], [['1', 'x,y']])).toBe('\uFEFFa,b\r\n1,"x,y"\r\n');
  });
});

describe('the downloads export', () => {
  const rows: DownloadRow[] = [
    {
      dlDate: Date.UTC(2026, 2, 1, 9, 30),
      slug: 'abc123',
      fileName: '=cmd|calc.xlsx',
      dlOrigin: 'file',
      countryCode: 'DE',
      country_name: 'Germany',
      receiverEmail: 'ada@example.com',
    },
    {
      dlDate: Date.UTC(2026, 2, 2),
      slug: 'abc123',
      fileName: 'all, files.zip',
      dlOrigin: 'zip',
      countryCode: 'XX',
      country_name: 'Unknown',
    },
  ];

  it('has one line per download: ISO date, slug, file, origin, country name and code, recipient, receipts link', () => {
    const csv = downloadsCsv(rows, {
      header: ['Date', 'Transfer', 'File', 'Origin', 'Country', 'Code', 'Recipient', 'Receipts'],
      origin: { file: 'File', zip: 'ZIP' },
      countryName: (code) => (code === 'DE' ? 'Germany' : 'Unknown'),
      receiptsLink: (slug) => `https://app.example/dash/transfers/${slug}#receipts`,
    });
    expect(csv.split('\r\n')).toEqual([
      '\uFEFFDate,Transfer,File,Origin,Country,Code,Recipient,Receipts',
      "2026-03-01T09:30:00.000Z,abc123,'=cmd|calc.xlsx,File,Germany,DE,ada@example.com,https://app.example/dash/transfers/abc123#receipts",
      '2026-03-02T00:00:00.000Z,abc123,"all, files.zip",ZIP,Unknown,XX,,https://app.example/dash/transfers/abc123#receipts',
      '',
    ]);
  });

  it('is named after its range', () => {
    expect(csvFileName('2026-01-01', '2026-01-31')).toBe('sendbridge-downloads-2026-01-01-to-2026-01-31.csv');
  });

  it('reads every page by cursor', async () => {
    const pages: Record<string, DownloadRowsPage> = {
      start: { rows: [rows[0]!], cursor: 'p2' },
      p2: { rows: [rows[1]!], cursor: 'p3' },
      p3: { rows: [] },
    };
    const asked: (string | undefined)[] = [];
    const all = await collectRows(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'start']!;
    });
    expect(asked).toEqual([undefined, 'p2', 'p3']);
    expect(all).toEqual(rows);
  });

  it('stops on a cursor that repeats or never ends', async () => {
    let calls = 0;
    await collectRows(async () => {
      calls += 1;
      return { rows: [], cursor: 'same' };
    });
    expect(calls).toBe(2);
    calls = 0;
    await collectRows(async () => {
      calls += 1;
      return { rows: [], cursor: `c${calls}` };
    });
    expect(calls).toBe(MAX_EXPORT_PAGES);
  });
});

describe('date ranges', () => {
  const now = Date.UTC(2026, 2, 15, 18, 45);

  it('presets end today (UTC) and include it', () => {
    expect(presetRange(7, now)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange(30, now)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(presetOf({ from: '2026-02-14', to: '2026-03-15' }, now)).toBe(30);
    expect(presetOf({ from: '2026-02-13', to: '2026-03-15' }, now)).toBeNull();
  });

  it('accepts real days only', () => {
    expect(parseDay('2026-02-28')).toBe(Date.UTC(2026, 1, 28));
    expect(parseDay('2026-02-30')).toBeNull();
    expect(parseDay('2026-2-3')).toBeNull();
  });

  it('refuses broken, reversed and over-long ranges', () => {
    expect(rangeProblem({ from: '2026-01-01', to: '2026-01-01' })).toBeNull();
    expect(rangeProblem({ from: '', to: '2026-01-01' })).toBe('invalid');
    expect(rangeProblem({ from: '2026-01-02', to: '2026-01-01' })).toBe('order');
    expect(rangeProblem({ from: '2024-01-01', to: '2025-12-31' })).toBeNull(); // 731 days
    expect(rangeProblem({ from: '2024-01-01', to: '2026-01-01' })).toBe('tooLong');
  });
});

describe('buckets and series', () => {
  it('starts a week on its Monday and a month on its first day', () => {
    expect(bucketStart('2026-03-15', 'day')).toBe('2026-03-15');
    expect(bucketStart('2026-03-15', 'week')).toBe('2026-03-09'); // a Sunday
    expect(bucketStart('2026-03-09', 'week')).toBe('2026-03-09'); // a Monday
    expect(bucketStart('2026-01-01', 'week')).toBe('2025-12-29');
    expect(bucketStart('2026-03-15', 'month')).toBe('2026-03-01');
  });

  it('lists every bucket of a range, across month and year ends', () => {
    expect(bucketStarts('2026-02-27', '2026-03-02', 'day')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(bucketStarts('2026-03-01', '2026-03-16', 'week')).toEqual([
      '2026-02-23',
      '2026-03-02',
      '2026-03-09',
      '2026-03-16',
    ]);
    expect(bucketStarts('2025-11-20', '2026-02-01', 'month')).toEqual([
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
    ]);
  });

  it('fills missing buckets with zeros, in order, and sums points into their bucket', () => {
    const series = [
      { start: '2026-03-03', downloads: 2 },
      { start: '2026-03-01', downloads: 1 },
      { start: 'junk', downloads: 99 },
    ];
    expect(completeSeries(series, '2026-03-01', '2026-03-04', 'day')).toEqual([
      { start: '2026-03-01', downloads: 1 },
      { start: '2026-03-02', downloads: 0 },
      { start: '2026-03-03', downloads: 2 },
      { start: '2026-03-04', downloads: 0 },
    ]);
    expect(completeSeries(series, '2026-03-01', '2026-03-04', 'month')).toEqual([
      { start: '2026-03-01', downloads: 3 },
    ]);
  });

  it('gives uPlot index x values and the downloads, and the peak at least 1', () => {
    expect(
      toChartData([
        { start: '2026-03-01', downloads: 4 },
        { start: '2026-03-02', downloads: 0 },
      ]),
    ).toEqual([
      [0, 1],
      [4, 0],
    ]);
    expect(peak([0, 0])).toBe(1);
    expect(peak([3, 7, 2])).toBe(7);
  });

  it('labels buckets in the UI language', () => {
    expect(bucketLabel('2026-03-09', 'day', 'en')).toBe('Mar 9, 2026');
    expect(bucketLabel('2026-03-01', 'month', 'en')).toBe('Mar 2026');
    expect(bucketLabel('2026-03-09', 'week', 'de')).toBe('9. März 2026');
  });

  it('keeps axis ticks short: no year for days and weeks, a short one for months', () => {
    expect(bucketTick('2026-03-09', 'day', 'en')).toBe('Mar 9');
    expect(bucketTick('2026-03-01', 'month', 'en')).toBe('Mar 26');
    expect(bucketTick('2026-03-09', 'week', 'ja')).toBe('3月9日');
  });
});

describe('the world map', () => {
  it('maps alpha-2 codes to the ISO numeric ids world-atlas uses', () => {
    expect(numericOf('DE')).toBe('276');
    expect(numericOf('us')).toBe('840');
    expect(numericOf('AF')).toBe('004');
    expect(numericOf('XX')).toBeUndefined();
    expect(numericOf('')).toBeUndefined();
    expect(numericOf('DEU')).toBeUndefined();
  });

  it('can colour every country shape of the atlas that has an id', () => {
    const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
    const ids = feature(topology, topology.objects.countries)
      .features.map((f) => f.id)
      .filter((id): id is string => typeof id === 'string');
    expect(ids.length).toBeGreaterThan(170);
    const unreachable = ids.filter((id) => {
      const alpha2 = countries.numericToAlpha2(id);
      return !alpha2 || numericOf(alpha2) !== id;
    });
    expect(unreachable).toEqual([]);
  });

  it('shades on a log scale: none, palest for one, darkest for the busiest', () => {
    expect(shadeOf(0, 100)).toBe(0);
    expect(shadeOf(1, 1)).toBe(SHADES);
    expect(shadeOf(1, 1000)).toBe(1);
    expect(shadeOf(1000, 1000)).toBe(SHADES);
    expect(shadeOf(32, 1000)).toBe(3);
    const shades = [1, 3, 10, 30, 100, 300, 1000].map((n) => shadeOf(n, 1000));
    expect([...shades].sort((a, b) => a - b)).toEqual(shades);
  });
});
