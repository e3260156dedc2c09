import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATIONS_POLL_MS, type NotificationView } from '@domain/dashboard-api';
import { badgeText } from '@/features/notifications/badge';
import {
  TRANSFER_ACTIVITY_EVENT,
  applyLocalReads,
  arrivals,
  changedSlugs,
  markedRead,
} from '@/features/notifications/notification-list';
import { TRANSFER_ACTIVITY_EVENT as LISTENED_EVENT } from '@/features/transfers/hooks/use-transfer-list';
import { POLL_MS, startVisiblePolling, type PollerDeps } from '@/features/notifications/poller';
import { relativeTime } from '@/features/notifications/relative-time';
import { countryName } from '@/lib/country-name';

const note = (id: string, read = false): NotificationView => ({
  _id: id,
  slug: `slug-${id}`,
  read,
  dlDate: 1_700_000_000_000,
  dlCountryCode: 'DE',
  fileName: 'report.pdf',
  dlOrigin: 'file',
});

describe('the bell badge', () => {
  it('is empty without unread notifications', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(-3)).toBe('');
    expect(badgeText(Number.NaN)).toBe('');
  });

  it('shows the count up to 9 and 9+ above', () => {
    expect(badgeText(1)).toBe('1');
    expect(badgeText(9)).toBe('9');
    expect(badgeText(10)).toBe('9+');
    expect(badgeText(100)).toBe('9+');
  });
});

describe('the notification list', () => {
  it('shows an item read here as read until the server agrees, and does not count it', () => {
    const pending = new Set(['b']);
    const view = applyLocalReads({ notifications: [note('a'), note('b')], unreadCount: 2 }, pending);
    expect(view.notifications.map((n) => n.read)).toEqual([false, true]);
    expect(view.unreadCount).toBe(1);
    expect(pending.has('b')).toBe(true);
  });

  it('forgets a local read once the server reports it read', () => {
    const pending = new Set(['b']);
    const view = applyLocalReads({ notifications: [note('a'), note('b', true)], unreadCount: 1 }, pending);
    expect(view.unreadCount).toBe(1);
    expect(pending.size).toBe(0);
  });

  it('announces nothing on the first load, then only unread ones it had not seen', () => {
    expect(arrivals(null, [note('a')])).toEqual([]);
    expect(arrivals([note('a')], [note('c'), note('b', true), note('a')]).map((n) => n._id)).toEqual(['c']);
  });

  it('marks one read and lowers the count once', () => {
    const view = { notifications: [note('a'), note('b')], unreadCount: 2 };
    const after = markedRead(view, 'a');
    expect(after.unreadCount).toBe(1);
    expect(after.notifications[0]!.read).toBe(true);
    expect(markedRead(after, 'a')).toBe(after);
    expect(markedRead(after, 'missing')).toBe(after);
  });

  it('dispatches the activity event under the name the transfers screens listen to', () => {
    expect(TRANSFER_ACTIVITY_EVENT).toBe(LISTENED_EVENT);
  });

  it('names the transfers with new or moved notifications (a batched one moved later), none on the first load', () => {
    const later = { ...note('b'), dlDate: note('b').dlDate + 60_000 };
    expect(changedSlugs(null, [note('a')])).toEqual([]);
    expect(changedSlugs([note('a'), note('b')], [note('a'), note('b')])).toEqual([]);
    expect(changedSlugs([note('a'), note('b')], [note('c'), later, note('a')])).toEqual(['slug-c', 'slug-b']);
    // read or not, a known notification at the same time is no news
    expect(changedSlugs([note('a')], [note('a', true)])).toEqual([]);
    // a review burst counting up keeps its id and time
    const burst = (comments: number): NotificationView => ({
      ...note('r'),
      kind: 'review',
      review: { comments, approvals: 0, changesRequested: 0 },
    });
    expect(changedSlugs([burst(1)], [burst(1)])).toEqual([]);
    expect(changedSlugs([burst(1)], [burst(2)])).toEqual(['slug-r']);
  });
});

describe('country names', () => {
  it('names a country in the UI language and says Unknown for XX or junk', () => {
    expect(countryName('DE', 'en', 'Unknown')).toBe('Germany');
    expect(countryName('de', 'fr', 'Inconnu')).toBe('Allemagne');
    expect(countryName('XX', 'en', 'Unknown')).toBe('Unknown');
    expect(countryName('', 'en', 'Unknown')).toBe('Unknown');
    expect(countryName('DEU', 'en', 'Unknown')).toBe('Unknown');
  });
});

describe('relative time', () => {
  const now = Date.UTC(2026, 0, 15, 12);
  it('reads as now, minutes, hours and days ago in the UI language', () => {
    expect(relativeTime(now - 2_000, now, 'en')).toBe('now');
    expect(relativeTime(now - 5 * 60_000, now, 'en')).toBe('5 minutes ago');
    expect(relativeTime(now - 3 * 3_600_000, now, 'en')).toBe('3 hours ago');
    expect(relativeTime(now - 86_400_000, now, 'en')).toBe('yesterday');
    expect(relativeTime(now - 3 * 3_600_000, now, 'de')).toBe('vor 3 Stunden');
  });

  it('treats a time in the future (clock skew) as now', () => {
    expect(relativeTime(now + 60_000, now, 'en')).toBe('now');
  });
});

describe('polling while the tab is visible', () => {
  let visible: boolean;
  let listeners: (() => void)[];
  let deps: PollerDeps;
  let stops: (() => void)[];

  const setVisible = (value: boolean) => {
    visible = value;
    listeners.forEach((l) => l());
  };

  beforeEach(() => {
    vi.useFakeTimers();
    visible = true;
    listeners = [];
    stops = [];
    deps = {
      isVisible: () => visible,
      onVisibilityChange: (listener) => {
        listeners.push(listener);
        return () => {
          listeners = listeners.filter((l) => l !== listener);
        };
      },
      setTimer: (run, ms) => setTimeout(run, ms),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
  });

  afterEach(() => {
    stops.forEach((stop) => stop());
    vi.useRealTimers();
  });

  const start = (poll: () => Promise<unknown>, ms = 15_000) => {
    const stop = startVisiblePolling(poll, ms, deps);
    stops.push(stop);
    return stop;
  };

  it("uses the contract's interval, which keeps a download under 30 s from the bell", () => {
    expect(POLL_MS).toBe(NOTIFICATIONS_POLL_MS);
    expect(POLL_MS * 2).toBeLessThanOrEqual(30_000);
  });

  it('polls at once, then every interval', async () => {
    const poll = vi.fn(() => Promise.resolve());
    start(poll);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(poll).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(poll).toHaveBeenCalledTimes(4);
  });

  it('stops while hidden and polls at once when visible again', async () => {
    const poll = vi.fn(() => Promise.resolve());
    start(poll);
    await vi.advanceTimersByTimeAsync(0);
    setVisible(false);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(poll).toHaveBeenCalledTimes(1);
    setVisible(true);
    expect(poll).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(poll).toHaveBeenCalledTimes(3);
  });

  it('does not poll at start when the tab is hidden', async () => {
    visible = false;
    const poll = vi.fn(() => Promise.resolve());
    start(poll);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(poll).not.toHaveBeenCalled();
  });

  it('never runs two polls at once: the next waits for a slow answer', async () => {
    let finish: () => void = () => undefined;
    const poll = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    start(poll);
    await vi.advanceTimersByTimeAsync(60_000);
    setVisible(false);
    setVisible(true);
    expect(poll).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it('keeps polling after a failed poll', async () => {
    const poll = vi.fn(() => Promise.reject(new Error('offline')));
    start(poll);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it('stops for good when stopped (sign-out), even with a poll in flight', async () => {
    let finish: () => void = () => undefined;
    const poll = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const stop = start(poll);
    stop();
    finish();
    await vi.advanceTimersByTimeAsync(60_000);
    setVisible(true);
    expect(poll).toHaveBeenCalledTimes(1);
    expect(listeners).toEqual([]);
  });
});
