import { describe, expect, it } from 'vitest';
import { GB } from '@domain/units';
import { storageUsage } from '@/features/dashboard/storage-usage';

const LIMIT = 10 * GB;

describe('storage bar (spec §4)', () => {
  it('is ok below 90 %', () => {
    expect(storageUsage(0, LIMIT)).toMatchObject({ state: 'ok', percent: 0, fill: 0, remaining: LIMIT });
    expect(storageUsage(LIMIT * 0.5, LIMIT)).toMatchObject({ state: 'ok', percent: 50, fill: 50 });
    expect(storageUsage(LIMIT * 0.9 - 1, LIMIT).state).toBe('ok');
  });

  it('warns from 90 % up to, not including, 100 %', () => {
    expect(storageUsage(LIMIT * 0.9, LIMIT)).toMatchObject({ state: 'warning', percent: 90 });
    expect(storageUsage(LIMIT - 1, LIMIT)).toMatchObject({ state: 'warning', percent: 99, remaining: 1 });
  });

  it('is full from 100 %, and the bar does not overflow', () => {
    expect(storageUsage(LIMIT, LIMIT)).toMatchObject({ state: 'full', percent: 100, fill: 100, remaining: 0 });
    expect(storageUsage(LIMIT * 1.5, LIMIT)).toMatchObject({ state: 'full', percent: 150, fill: 100, remaining: 0 });
  });

  it('rounds the percentage down so it never reads 90 % before the warning shows', () => {
    const justUnder = storageUsage(LIMIT * 0.8999, LIMIT);
    expect(justUnder.state).toBe('ok');
    expect(justUnder.percent).toBe(89);
  });

  it('keeps a sliver of fill visible for a little usage', () => {
    expect(storageUsage(1, LIMIT)).toMatchObject({ percent: 0, fill: 1, state: 'ok' });
  });

  it('treats a zero allowance as full', () => {
    expect(storageUsage(0, 0)).toMatchObject({ state: 'full', percent: 100 });
  });
});
