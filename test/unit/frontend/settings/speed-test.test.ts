import { describe, expect, it } from 'vitest';
import { medianMs } from '@domain/settings-api';
import { signalBars } from '@domain/signal';
import { measureAll, measureRegion, type SpeedTestDeps } from '@/features/settings/speed-test';

/** A clock that each HEAD advances by the next scripted duration; a negative duration is a failed request. */
function scripted(durations: number[]): SpeedTestDeps & { calls: { url: string; init: RequestInit }[] } {
  let now = 1000;
  const calls: { url: string; init: RequestInit }[] = [];
  return {
    calls,
    now: () => now,
    async fetch(url, init) {
      calls.push({ url, init });
      const d = durations.shift() ?? 0;
      if (d < 0) throw new TypeError('network');
      now += d;
      return { ok: true };
    },
  };
}

describe('the Region picker speed test', () => {
  it('takes the median of three uncached HEADs on the URL', async () => {
    const deps = scripted([300, 90, 120]);
    expect(await measureRegion('https://s3.example/speedtest?sig', deps)).toBe(120);
    expect(deps.calls).toHaveLength(3);
    for (const c of deps.calls) {
      expect(c.url).toBe('https://s3.example/speedtest?sig');
      expect(c.init.method).toBe('HEAD');
      expect(c.init.cache).toBe('no-store');
    }
  });

  it('leaves failed samples out, and with none has no speed (the fewest bars)', async () => {
    expect(await measureRegion('u', scripted([-1, 200, 400]))).toBe(300);
    const none = await measureRegion('u', scripted([-1, -1, -1]));
    expect(Number.isNaN(none)).toBe(true);
    expect(signalBars(none)).toBe(2);
  });

  it('a non-OK answer is not a sample', async () => {
    let now = 0;
    const deps: SpeedTestDeps = { now: () => now, fetch: async () => ((now += 50), { ok: false }) };
    expect(Number.isNaN(await measureRegion('u', deps))).toBe(true);
  });

  it('reports every region', async () => {
    const got: [string, number][] = [];
    await measureAll(
      [
        { regionId: 'hongkong', url: 'a' },
        { regionId: 'dubai', url: 'b' },
      ],
      (id, ms) => got.push([id, ms]),
      scripted([10, 10, 10, 10, 10, 10]),
    );
    expect(got.map(([id]) => id).sort()).toEqual(['dubai', 'hongkong']);
  });

  it('median of an even count is the mean of the middle two; spec §9 bars from ms', () => {
    expect(medianMs([100, 300])).toBe(200);
    expect(medianMs([5])).toBe(5);
    expect([180, 181, 480, 481, 900, 901].map(signalBars)).toEqual([5, 4, 4, 3, 3, 2]);
  });
});
