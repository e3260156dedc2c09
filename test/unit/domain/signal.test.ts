import { describe, it, expect } from 'vitest';
import { signalBars } from '../../../functions/domain/signal';

describe('signal bars', () => {
  it.each([
    [0, 5],
    [180, 5],
    [181, 4],
    [480, 4],
    [481, 3],
    [900, 3],
    [901, 2],
    [60_000, 2],
  ])('%d ms shows %d bars', (ms, bars) => {
    expect(signalBars(ms)).toBe(bars);
  });

  it('shows 2 bars for a probe that failed', () => {
    expect(signalBars(Number.NaN)).toBe(2);
    expect(signalBars(Number.POSITIVE_INFINITY)).toBe(2);
  });
});
