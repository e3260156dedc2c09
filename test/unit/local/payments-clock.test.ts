import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../scripts/local/payments-clock';

describe('npm run payments:clock durations', () => {
  it('reads seconds, minutes, hours, days, weeks and their sums', () => {
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('12h')).toBe(43_200);
    expect(parseDuration('8d')).toBe(8 * 86_400);
    expect(parseDuration('2w')).toBe(14 * 86_400);
    expect(parseDuration('1d12h')).toBe(129_600);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '8 days', '-1d', '1.5d', 'd', '8y'])
      expect(() => parseDuration(bad), bad).toThrow(/duration/u);
  });
});
