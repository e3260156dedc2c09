/** Region picker signal bars of spec §9 from a measured round trip in ms. */

export const SIGNAL_THRESHOLDS_MS = [
  { maxMs: 180, bars: 5 },
  { maxMs: 480, bars: 4 },
  { maxMs: 900, bars: 3 },
] as const;

export const MIN_SIGNAL_BARS = 2;

/** An unmeasured or failed probe (NaN, Infinity) shows the fewest bars. */
export function signalBars(ms: number): 2 | 3 | 4 | 5 {
  for (const t of SIGNAL_THRESHOLDS_MS) if (ms <= t.maxMs) return t.bars;
  return MIN_SIGNAL_BARS;
}
