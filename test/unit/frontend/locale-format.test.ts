/**
 * The download and request pages say sizes, dates and relative times in the
 * visitor's language (Intl), not in English.
 */
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatSize } from '@/lib/format-size';
import { expiredText, timeAgo } from '@/features/downloads/expired-text';
import { formatDateTime } from '@/lib/format-date-time';
import { refusalText } from '@/features/requests/request-errors';

const plain = (s: string) => s.replace(/[\u00a0\u202f]/gu, ' ');
const t = ((key: string, params?: Record<string, string>) =>
  params?.ago ? `${key}:${params.ago}` : key) as unknown as TFunction;
const DAY = 86_400_000;
// noon UTC: the same calendar day in every time zone the tests may run in
const NOON = Date.UTC(2026, 10, 21, 12, 0);

describe('sizes per locale', () => {
  it('French and German decimal commas and unit names; English dots', () => {
    expect(plain(formatSize(1_500_000, 'fr'))).toBe('1,5 Mo');
    expect(plain(formatSize(2_500_000_000, 'de'))).toBe('2,5 GB');
    expect(plain(formatSize(2_500_000_000, 'en'))).toBe('2.5 GB');
    expect(plain(formatSize(1_500_000, 'ja'))).toBe('1.5 MB');
  });

  it('a file request’s refusal names its limit in the page’s language', () => {
    const fr = refusalText('request_too_large', { limit: 1_500_000 }, 'fr');
    expect(fr?.key).toBe('public.refused.tooLarge');
    expect(plain(String((fr!.params as { max: string }).max))).toBe('1,5 Mo');
    const en = refusalText('request_too_large', { limit: 1_500_000 });
    expect(plain(String((en!.params as { max: string }).max))).toBe('1.5 MB');
  });
});

describe('dates and relative times per locale', () => {
  it('the expiry date in French, Japanese, Chinese and German words', () => {
    expect(formatDateTime(NOON, 'fr')).toMatch(/^21 novembre 2026 à \d{2}:\d{2}$/u);
    expect(formatDateTime(NOON, 'ja')).toMatch(/^2026年11月21日 \d{1,2}:\d{2}$/u);
    expect(formatDateTime(NOON, 'zh')).toMatch(/^2026年11月21日 \d{2}:\d{2}$/u);
    expect(formatDateTime(NOON, 'de')).toMatch(/^21\. November 2026 um \d{2}:\d{2}$/u);
  });

  it('"3 days ago" in the visitor’s language; English keeps the spec’s sentence', () => {
    expect(timeAgo(3 * DAY + 5_000, 'fr', t)).toBe('il y a 3 jours');
    expect(timeAgo(3 * DAY, 'es', t)).toBe('hace 3 días');
    expect(timeAgo(2 * 3_600_000, 'ko', t)).toBe('2시간 전');
    expect(expiredText(NOON - 3 * DAY, NOON, 'de', t)).toBe('download.expired:vor 3 Tagen');
    expect(expiredText(NOON - 3 * DAY, NOON, 'en', t)).toMatch(/3 days ago/u);
  });
});
