import { describe, expect, it } from 'vitest';
import { ceilToMinute, fromLocalInputValue, toLocalInputValue } from '@/features/send/datetime-local';

describe('the custom expiry picker value', () => {
  it('writes and reads local wall-clock minutes', () => {
    const ms = new Date(2025, 6, 4, 9, 5, 0).getTime();
    expect(toLocalInputValue(ms)).toBe('2025-07-04T09:05');
    expect(fromLocalInputValue('2025-07-04T09:05')).toBe(ms);
    expect(fromLocalInputValue('2025-07-04T09:05:30')).toBe(ms + 30_000);
  });

  it('drops seconds when writing', () => {
    expect(toLocalInputValue(new Date(2025, 0, 1, 23, 59, 59).getTime())).toBe('2025-01-01T23:59');
  });

  it('reads anything else as no date', () => {
    for (const value of ['', '2025-02-30T10:00', '2025-13-01T10:00', '2025-07-04', 'tomorrow']) expect(fromLocalInputValue(value), value).toBeNull();
  });

  it('rounds the earliest allowed time up to a whole minute', () => {
    expect(ceilToMinute(120_000)).toBe(120_000);
    expect(ceilToMinute(120_001)).toBe(180_000);
  });
});
