import { describe, it, expect } from 'vitest';
import {
  ANON_OBJECT_EXPIRY_DAYS,
  CUSTOM_DATE_MARKER,
  PURGE_GRACE_SECONDS,
  anonFilesKeptUntil,
  purgeDateOf,
  CUSTOM_EXPIRY_MAX_AHEAD_MS,
  CUSTOM_EXPIRY_MIN_AHEAD_MS,
  DEFAULT_EXPIRY_SECONDS,
  EXPIRY_PRESETS,
  EXTENSION_SECONDS,
  RESUME_WINDOW_SECONDS,
  allowedExpiryPresets,
  canPickCustomExpiry,
  checkCustomExpiry,
  expiryDateFor,
  expiryLabel,
  extendedExpiryDate,
  isExpiryAllowed,
  isExpiryPreset,
} from '../../../functions/domain/expiry';
import { customExpirySchema, problemsOf } from '../../../functions/domain/validation';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const MIN = 60_000;

describe('expiry presets', () => {
  it('are the spec seconds and labels, 1 Week first', () => {
    expect(EXPIRY_PRESETS).toEqual([
      { seconds: 604800, label: '1 Week' },
      { seconds: 2629746, label: '1 Month' },
      { seconds: 7889238, label: '3 Months' },
      { seconds: 31536000, label: '1 Year' },
    ]);
  });

  it('default to 1 Week and mark a custom date with 604801', () => {
    expect(DEFAULT_EXPIRY_SECONDS).toBe(604800);
    expect(CUSTOM_DATE_MARKER).toBe(604801);
    expect(isExpiryPreset(CUSTOM_DATE_MARKER)).toBe(false);
    expect(expiryLabel(CUSTOM_DATE_MARKER)).toBe('Custom Date');
    expect(expiryLabel(7889238)).toBe('3 Months');
    expect(expiryLabel(5)).toBeNull();
  });

  it('extend by 48 hours and keep uploads resumable for 7 days', () => {
    expect(EXTENSION_SECONDS).toBe(172800);
    expect(RESUME_WINDOW_SECONDS).toBe(604800);
  });
});

describe('expiry choices by role', () => {
  it.each(['free', 'anon'])('lets %s pick only 1 Week and no custom date', (role) => {
    expect(allowedExpiryPresets(role)).toEqual([604800]);
    expect(canPickCustomExpiry(role)).toBe(false);
    expect(isExpiryAllowed(role, 2629746)).toBe(false);
    expect(isExpiryAllowed(role, CUSTOM_DATE_MARKER)).toBe(false);
    expect(isExpiryAllowed(role, 604800)).toBe(true);
  });

  it.each(['personal', 'pro', 'teamelite', 'premium'])('lets %s pick every preset and a custom date', (role) => {
    expect(allowedExpiryPresets(role)).toEqual([604800, 2629746, 7889238, 31536000]);
    expect(isExpiryAllowed(role, CUSTOM_DATE_MARKER)).toBe(true);
  });

  it('refuses durations that are not presets', () => {
    expect(isExpiryAllowed('pro', 3600)).toBe(false);
  });
});

describe('custom expiry date', () => {
  it('must be at least 30 minutes ahead, 30 minutes exactly included', () => {
    expect(CUSTOM_EXPIRY_MIN_AHEAD_MS).toBe(30 * MIN);
    expect(checkCustomExpiry(NOW + 30 * MIN, NOW)).toBeNull();
    expect(checkCustomExpiry(NOW + 30 * MIN - 1, NOW)).toBe('too_soon');
    expect(checkCustomExpiry(NOW - 1, NOW)).toBe('too_soon');
  });

  it('must be at most 1 year ahead, 1 year exactly included', () => {
    expect(CUSTOM_EXPIRY_MAX_AHEAD_MS).toBe(31536000 * 1000);
    expect(checkCustomExpiry(NOW + 31536000 * 1000, NOW)).toBeNull();
    expect(checkCustomExpiry(NOW + 31536000 * 1000 + 1, NOW)).toBe('too_late');
  });

  it('rejects NaN as too soon', () => {
    expect(checkCustomExpiry(Number.NaN, NOW)).toBe('too_soon');
  });

  it('is parsed by a schema that reports the bound it broke', () => {
    const schema = customExpirySchema(NOW);
    expect(schema.parse(NOW + 31 * MIN)).toBe(NOW + 31 * MIN);
    const soon = schema.safeParse(NOW + 29 * MIN);
    expect(soon.success).toBe(false);
    expect(problemsOf(soon.error!)).toEqual([
      { code: 'expiry_too_soon', field: '', message: 'Pick a date at least 30 minutes from now' },
    ]);
    const late = schema.safeParse(NOW + 400 * 24 * 60 * MIN);
    expect(problemsOf(late.error!)).toEqual([
      { code: 'expiry_too_late', field: '', message: 'Pick a date at most 1 year from now' },
    ]);
    expect(schema.safeParse('tomorrow').success).toBe(false);
  });
});

describe('expiry dates', () => {
  it('add the preset to now', () => {
    expect(expiryDateFor(604800, NOW)).toBe(NOW + 604800 * 1000);
  });

  it('use the custom date when the marker is chosen, and refuse a missing one', () => {
    expect(expiryDateFor(CUSTOM_DATE_MARKER, NOW, NOW + 3_600_000)).toBe(NOW + 3_600_000);
    expect(() => expiryDateFor(CUSTOM_DATE_MARKER, NOW)).toThrow(RangeError);
  });

  it('extend an expired transfer to 48 hours from now', () => {
    expect(extendedExpiryDate(NOW - 5_000, NOW)).toBe(NOW + 48 * 3_600_000);
  });

  it('extend a live transfer 48 hours past its current expiry', () => {
    expect(extendedExpiryDate(NOW + 1_000, NOW)).toBe(NOW + 1_000 + 48 * 3_600_000);
  });
});

describe("anonymous transfers never outlive the anon bucket's object lifetime", () => {
  const DAY = 86_400_000;
  const created = NOW - 20 * DAY;
  const keptUntil = anonFilesKeptUntil(created);

  it("S3 keeps their objects 30 days from the transfer's creation at least", () => {
    expect(ANON_OBJECT_EXPIRY_DAYS).toBe(30);
    expect(keptUntil).toBe(created + 30 * DAY);
  });

  it('every approved extension stops at that date, however often the recipients ask', () => {
    let expiry = created + 7 * DAY;
    let now = expiry + DAY;
    for (let i = 0; i < 20; i++) {
      expiry = extendedExpiryDate(expiry, now, keptUntil);
      expect(expiry).toBeLessThanOrEqual(keptUntil);
      now = Math.min(expiry + DAY, purgeDateOf({ expiryDate: expiry, anon: true, createdAt: created }) - 1);
    }
    expect(expiry).toBe(keptUntil);
  });

  it('an extension inside the lifetime still gives the full 48 hours', () => {
    expect(extendedExpiryDate(created + 7 * DAY, created + 8 * DAY, keptUntil)).toBe(created + 10 * DAY);
  });

  it('the sweep purges them by that date; other transfers keep the whole grace period', () => {
    const expiryDate = keptUntil - DAY;
    expect(purgeDateOf({ expiryDate, anon: true, createdAt: created })).toBe(keptUntil);
    expect(purgeDateOf({ expiryDate, anon: false, createdAt: created })).toBe(expiryDate + PURGE_GRACE_SECONDS * 1000);
  });
});
