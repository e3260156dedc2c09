import { describe, it, expect } from 'vitest';
import { badgeText, expiredAgoText, formatBytes, formatSpeed, humanDuration } from '../../../functions/domain/format';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 KB'],
    [1500, '1.5 KB'],
    [1_500_000_000, '1.5 GB'],
    [3e9, '3 GB'],
    [999_960_000, '1 GB'],
    [2.5e12, '2.5 TB'],
    [123_456_789, '123.5 MB'],
  ])('shows %d bytes as %j', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('shows nonsense sizes as 0 B rather than NaN', () => {
    expect(formatBytes(Number.NaN)).toBe('0 B');
    expect(formatBytes(-5)).toBe('0 B');
  });

  it('shows speed per second', () => {
    expect(formatSpeed(2_400_000)).toBe('2.4 MB/s');
  });
});

describe('durations', () => {
  it.each([
    [30_000, 'less than a minute'],
    [MIN, '1 minute'],
    [59 * MIN, '59 minutes'],
    [HOUR, '1 hour'],
    [23 * HOUR + 59 * MIN, '23 hours'],
    [DAY, '1 day'],
    [1.9 * DAY, '1 day'],
    [29 * DAY, '29 days'],
    [30 * DAY, '1 month'],
    [364 * DAY, '12 months'],
    [365 * DAY, '1 year'],
    [800 * DAY, '2 years'],
  ])('%d ms reads %j', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('fills the download page 410 text', () => {
    const now = Date.UTC(2025, 0, 10);
    expect(expiredAgoText(now - 3 * DAY, now)).toBe('Sorry, this download expired 3 days ago.');
  });
});

describe('notification badge', () => {
  it('shows the count up to 9 and 9+ above', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(1)).toBe('1');
    expect(badgeText(9)).toBe('9');
    expect(badgeText(10)).toBe('9+');
  });
});
