import { describe, it, expect } from 'vitest';
import { storageRatio, storageRemaining, storageState, storageStateFromRatio } from '../../../functions/domain/storage';

describe('storage state', () => {
  it.each([
    [0, 'ok'],
    [0.8999, 'ok'],
    [0.9, 'warning'],
    [0.9999, 'warning'],
    [1, 'full'],
    [1.5, 'full'],
  ] as const)('ratio %d is %s', (ratio, state) => {
    expect(storageStateFromRatio(ratio)).toBe(state);
  });

  it('works from bytes at the 90 % and 100 % boundaries', () => {
    const limit = 10e9;
    expect(storageState(8_999_000_000, limit)).toBe('ok');
    expect(storageState(9e9, limit)).toBe('warning');
    expect(storageState(10e9 - 1, limit)).toBe('warning');
    expect(storageState(10e9, limit)).toBe('full');
  });

  it('treats a zero allowance as full', () => {
    expect(storageRatio(0, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(storageState(0, 0)).toBe('full');
  });

  it('never reports negative room left', () => {
    expect(storageRemaining(12, 10)).toBe(0);
    expect(storageRemaining(3, 10)).toBe(7);
  });
});
