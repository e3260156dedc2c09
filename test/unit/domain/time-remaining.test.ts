import { describe, it, expect } from 'vitest';
import {
  PROGRESS_MIN_WIDTH_PERCENT,
  progressWidthPercent,
  secondsRemaining,
  timeRemainingText,
} from '../../../functions/domain/time-remaining';

describe('time remaining text', () => {
  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY, -1])(
    'says Calculating... when the estimate is %j',
    (s) => {
      expect(timeRemainingText(s)).toBe('Calculating...');
    },
  );

  it.each([
    [0, 'Less than 30 seconds remaining'],
    [29.9, 'Less than 30 seconds remaining'],
    [30, 'Less than a minute remaining'],
    [59.9, 'Less than a minute remaining'],
    [60, 'About 1 minute remaining'],
    [180, 'About 3 minutes remaining'],
    [3569, 'About 59 minutes remaining'],
    [3570, 'About 1 hour remaining'],
    [7200, 'About 2 hours remaining'],
    [86_400, 'About 1 day remaining'],
    [3 * 86_400, 'About 3 days remaining'],
  ])('for %d s says %j', (s, text) => {
    expect(timeRemainingText(s)).toBe(text);
  });

  it('estimates seconds from bytes left and speed, unknown while the speed is zero', () => {
    expect(secondsRemaining(1000, 100)).toBe(10);
    expect(secondsRemaining(1000, 0)).toBeNull();
    expect(secondsRemaining(1000, Number.NaN)).toBeNull();
  });
});

describe('progress bar width', () => {
  it('is at least 3 % and at most 100 %', () => {
    expect(PROGRESS_MIN_WIDTH_PERCENT).toBe(3);
    expect(progressWidthPercent(0)).toBe(3);
    expect(progressWidthPercent(2.9)).toBe(3);
    expect(progressWidthPercent(3.1)).toBe(3.1);
    expect(progressWidthPercent(64)).toBe(64);
    expect(progressWidthPercent(130)).toBe(100);
    expect(progressWidthPercent(Number.NaN)).toBe(3);
  });
});
