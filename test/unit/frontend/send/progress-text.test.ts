import { describe, expect, it } from 'vitest';
import { toastDurationMs } from '@/lib/use-toasts';
import { announcedPercent, barWidthPercent, percentDone, remainingText } from '@/shared/upload/progress-text';

describe('upload progress numbers', () => {
  it('counts whole percent and reaches 100 only when every byte is in', () => {
    expect(percentDone(0, 0)).toBe(0);
    expect(percentDone(0, 1000)).toBe(0);
    expect(percentDone(505, 1000)).toBe(50);
    expect(percentDone(9999, 10000)).toBe(99);
    expect(percentDone(999_999_999, 1_000_000_000)).toBe(99);
    expect(percentDone(1000, 1000)).toBe(100);
    expect(percentDone(-5, 1000)).toBe(0);
  });

  it('never draws the bar under 3 % or over 100 %', () => {
    expect(barWidthPercent(0)).toBe(3);
    expect(barWidthPercent(2)).toBe(3);
    expect(barWidthPercent(47)).toBe(47);
    expect(barWidthPercent(120)).toBe(100);
  });

  it('rounds the remaining time to minutes, hours or days', () => {
    expect(remainingText(null)).toEqual({ key: 'send.progress.remaining.calculating' });
    expect(remainingText(29_000)).toEqual({ key: 'send.progress.remaining.under30' });
    expect(remainingText(45_000)).toEqual({ key: 'send.progress.remaining.underMinute' });
    expect(remainingText(150_000)).toEqual({ key: 'send.progress.remaining.minutes', count: 3 });
    expect(remainingText(2 * 3600_000)).toEqual({ key: 'send.progress.remaining.hours', count: 2 });
    expect(remainingText(3 * 86_400_000)).toEqual({ key: 'send.progress.remaining.days', count: 3 });
  });

  it('announces progress to screen readers in 10 % steps', () => {
    expect([0, 9, 10, 55, 99, 100].map(announcedPercent)).toEqual([0, 0, 10, 50, 90, 100]);
  });

  it('keeps warnings 8.5 s, notifications 15.5 s and errors 8 s', () => {
    expect(toastDurationMs('warning')).toBe(8_500);
    expect(toastDurationMs('info')).toBe(15_500);
    expect(toastDurationMs('error')).toBe(8_000);
  });
});
