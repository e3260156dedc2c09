import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ANALYTICS_INTERVALS, type AnalyticsInterval } from '@domain/dashboard-api';
import { DEFAULT_PRESET, presetOf, presetRange, rangeProblem, type DayRange } from './date-range';

export function isInterval(value: string | null): value is AnalyticsInterval {
  return value !== null && (ANALYTICS_INTERVALS as readonly string[]).includes(value);
}

export type RangeUpdate = Partial<DayRange & { interval: AnalyticsInterval }>;

/** The analytics range and interval, kept in the address (?from&to&interval). */
export function useAnalyticsRange() {
  const [params, setParams] = useSearchParams();
  const fallback = useMemo(() => presetRange(DEFAULT_PRESET, Date.now()), []);
  const range: DayRange = { from: params.get('from') ?? fallback.from, to: params.get('to') ?? fallback.to };
  const intervalParam = params.get('interval');
  const interval: AnalyticsInterval = isInterval(intervalParam) ? intervalParam : 'day';
  const problem = rangeProblem(range);
  const preset = presetOf(range, Date.now());

  const update = (next: RangeUpdate) => {
    const merged = { ...range, interval, ...next };
    setParams({ from: merged.from, to: merged.to, interval: merged.interval }, { replace: true });
  };

  return { range, interval, problem, preset, update };
}
