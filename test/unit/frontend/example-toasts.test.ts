import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_ACTIVITY,
  EXAMPLE_TOAST_GAP_MS,
  EXAMPLE_TOAST_VISIBLE_MS,
  showExampleToasts,
  toastAt,
} from '@/features/home/example-toasts';

describe('example toasts (spec §9: 5.8 s, cycling every 2 s)', () => {
  it('shows each toast 5.8 s with 2 s between them, in order, round and round', () => {
    expect(EXAMPLE_TOAST_VISIBLE_MS).toBe(5800);
    expect(EXAMPLE_TOAST_GAP_MS).toBe(2000);
    expect(toastAt(0)).toBeNull();
    expect(toastAt(1999)).toBeNull();
    expect(toastAt(2000)).toBe(0);
    expect(toastAt(7799)).toBe(0);
    expect(toastAt(7800)).toBeNull();
    expect(toastAt(9800)).toBe(1);
    const period = 7800;
    expect(toastAt(period * EXAMPLE_ACTIVITY.length + 2000)).toBe(0);
  });

  it('is off for a signed-in user, under prefers-reduced-motion and once hidden', () => {
    expect(showExampleToasts({ reducedMotion: false, signedIn: false, hidden: false })).toBe(true);
    expect(showExampleToasts({ reducedMotion: true, signedIn: false, hidden: false })).toBe(false);
    expect(showExampleToasts({ reducedMotion: false, signedIn: true, hidden: false })).toBe(false);
    expect(showExampleToasts({ reducedMotion: false, signedIn: false, hidden: true })).toBe(false);
  });

  it('names real countries by code (named per language by Intl) and sizes', () => {
    for (const a of EXAMPLE_ACTIVITY) {
      expect(new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(a.from)).toBeTruthy();
      expect(new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(a.to)).toBeTruthy();
      expect(a.bytes).toBeGreaterThan(0);
    }
  });
});
