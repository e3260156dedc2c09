import { describe, expect, it } from 'vitest';
import { formatSize } from '@/lib/format-size';
import { formatBytes } from '@domain/format';

describe('formatSize', () => {
  it('rounds and scales as the domain formatBytes does (Intl writes the SI kB)', () => {
    for (const n of [0, 999, 1500, 300_000, 45e9, 999_960_000, 2e12]) {
      expect(
        formatSize(n, 'en')
          .replace(/\u00a0/g, ' ')
          .toLowerCase(),
      ).toBe(formatBytes(n).toLowerCase());
    }
    expect(formatSize(0, 'en')).toBe('0 B');
  });

  it('uses the reader language for the number and unit', () => {
    expect(formatSize(1_500_000_000, 'de').replace(/\u00a0/g, ' ')).toBe('1,5 GB');
    expect(formatSize(12, 'fr').replace(/[\u00a0\u202f]/g, ' ')).toBe('12 B');
  });
});
