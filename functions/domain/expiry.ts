/**
 * Transfer expiry rules of spec §4, §5, §6 and §9. Durations in seconds, dates in epoch ms.
 * Plain code without zod (the send form uses it on the first load); the schemas are in validation.ts.
 */
import type { Role } from './plans';
import { DAY_MS, MINUTE_MS, SECOND_MS } from './units';

export const EXPIRY_PRESETS = [
  { seconds: 604800, label: '1 Week' },
  { seconds: 2629746, label: '1 Month' },
  { seconds: 7889238, label: '3 Months' },
  { seconds: 31536000, label: '1 Year' },
] as const;

export type ExpiryPresetSeconds = (typeof EXPIRY_PRESETS)[number]['seconds'];

export const DEFAULT_EXPIRY_SECONDS = 604800;
/** Not a duration: the value the expiry picker holds while a custom date is chosen. */
export const CUSTOM_DATE_MARKER = 604801;
export const CUSTOM_DATE_LABEL = 'Custom Date';

export const EXTENSION_SECONDS = 48 * 3600;
export const RESUME_WINDOW_SECONDS = 7 * 24 * 3600;
/**
 * Files of an expired transfer are kept this long before the sweep deletes them, so that a
 * recipient can still ask for an extension of an expired download (spec §1) and the sender can
 * approve it. The page says 410 from the expiry date on; nobody can download in the grace period.
 */
export const PURGE_GRACE_SECONDS = 7 * 24 * 3600;

export const CUSTOM_EXPIRY_MIN_AHEAD_MS = 30 * MINUTE_MS;
/** "At most 1 year" is read as the 1 Year preset, so a custom date never outlives the longest preset. */
export const CUSTOM_EXPIRY_MAX_AHEAD_MS = 31536000 * SECOND_MS;

const PRESET_SECONDS: readonly number[] = EXPIRY_PRESETS.map((p) => p.seconds);

export function isExpiryPreset(seconds: number): seconds is ExpiryPresetSeconds {
  return PRESET_SECONDS.includes(seconds);
}

/** Free and anon may only keep files 1 Week; longer presets and custom dates are disabled for them. */
export function allowedExpiryPresets(role: Role | string): readonly number[] {
  return role === 'free' || role === 'anon' ? [DEFAULT_EXPIRY_SECONDS] : PRESET_SECONDS;
}

export function canPickCustomExpiry(role: Role | string): boolean {
  return role !== 'free' && role !== 'anon';
}

/** Whether the role may choose this expirySeconds value (a preset or the custom-date marker). */
export function isExpiryAllowed(role: Role | string, expirySeconds: number): boolean {
  if (expirySeconds === CUSTOM_DATE_MARKER) return canPickCustomExpiry(role);
  return allowedExpiryPresets(role).includes(expirySeconds);
}

export type CustomExpiryProblem = 'too_soon' | 'too_late';

/** Bounds are inclusive: exactly 30 minutes or exactly 1 year ahead is accepted. */
export function checkCustomExpiry(expiryDateMs: number, now: number): CustomExpiryProblem | null {
  if (!(expiryDateMs - now >= CUSTOM_EXPIRY_MIN_AHEAD_MS)) return 'too_soon';
  if (expiryDateMs - now > CUSTOM_EXPIRY_MAX_AHEAD_MS) return 'too_late';
  return null;
}

/** The stored expiryDate for a send: now + preset, or the custom date when the marker is chosen. */
export function expiryDateFor(expirySeconds: number, now: number, customExpiryDateMs?: number): number {
  if (expirySeconds === CUSTOM_DATE_MARKER) {
    if (customExpiryDateMs === undefined) throw new RangeError('custom expiry date missing');
    return customExpiryDateMs;
  }
  return now + expirySeconds * SECOND_MS;
}

/**
 * Days the anon bucket's lifecycle rule keeps an object, counted from its upload: the backstop
 * that removes whatever the expiry sweep missed (lib/storage-stack.ts).
 */
export const ANON_OBJECT_EXPIRY_DAYS = 30;

/**
 * Until when an anonymous transfer's files surely exist: S3 counts each object's days from its
 * upload, which is never before the transfer was created.
 */
export function anonFilesKeptUntil(createdAt: number): number {
  return createdAt + ANON_OBJECT_EXPIRY_DAYS * DAY_MS;
}

/**
 * When the sweep deletes a transfer's files: its expiry plus the grace period in which an
 * extension can still be asked for, but never after S3 has dropped an anonymous transfer's files.
 */
export function purgeDateOf(t: {
  readonly expiryDate: number;
  readonly anon: boolean;
  readonly createdAt: number;
}): number {
  const afterGrace = t.expiryDate + PURGE_GRACE_SECONDS * SECOND_MS;
  return t.anon ? Math.min(afterGrace, anonFilesKeptUntil(t.createdAt)) : afterGrace;
}

/**
 * An approved extension gives 48 hours from the later of now and the current expiry, so an
 * extension of a live transfer never shortens it; an anonymous transfer's never passes the date
 * S3 deletes its files (`keptUntil`), so the page never promises files that are gone.
 */
export function extendedExpiryDate(currentExpiryMs: number, now: number, keptUntil = Number.POSITIVE_INFINITY): number {
  return Math.min(Math.max(currentExpiryMs, now) + EXTENSION_SECONDS * SECOND_MS, Math.max(currentExpiryMs, keptUntil));
}

export function expiryLabel(expirySeconds: number): string | null {
  if (expirySeconds === CUSTOM_DATE_MARKER) return CUSTOM_DATE_LABEL;
  return EXPIRY_PRESETS.find((p) => p.seconds === expirySeconds)?.label ?? null;
}
