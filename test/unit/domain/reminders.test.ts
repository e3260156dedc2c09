import { describe, expect, it } from 'vitest';
import {
  REMINDER_BEFORE_EXPIRY_MS,
  notDownloaded,
  reminderDecision,
  reminderDueAt,
} from '../../../functions/domain/reminders';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 25, 12);

describe('reminderDueAt', () => {
  it('is 24 hours before the expiry', () => {
    expect(reminderDueAt(NOW + 7 * 24 * HOUR)).toBe(NOW + 6 * 24 * HOUR);
    expect(REMINDER_BEFORE_EXPIRY_MS).toBe(24 * HOUR);
  });
});

describe('reminderDecision', () => {
  const live = { status: 'ready', expiryDate: NOW + 20 * HOUR, dateSent: NOW - 5 * 24 * HOUR };

  it('sends inside the last 24 hours of a live transfer whose sender allows it', () => {
    expect(reminderDecision(live, true, NOW)).toBe('send');
  });

  it('waits when the expiry moved later than 24 hours away', () => {
    expect(reminderDecision({ ...live, expiryDate: NOW + 30 * HOUR }, true, NOW)).toBe('later');
  });

  it('closes expired, purged, deleted and unsent transfers, and when the sender turned reminders off', () => {
    expect(reminderDecision({ ...live, expiryDate: NOW }, true, NOW)).toBe('close');
    expect(reminderDecision({ ...live, status: 'expired' }, true, NOW)).toBe('close');
    expect(reminderDecision({ ...live, purged: true }, true, NOW)).toBe('close');
    expect(reminderDecision({ ...live, status: 'deleted' }, true, NOW)).toBe('close');
    expect(reminderDecision({ ...live, status: 'uploading' }, true, NOW)).toBe('close');
    expect(reminderDecision(live, false, NOW)).toBe('close');
  });

  it('does not remind within 12 hours of the send (a transfer that expires within a day)', () => {
    expect(reminderDecision({ ...live, dateSent: NOW - 11 * HOUR }, true, NOW)).toBe('close');
    expect(reminderDecision({ ...live, dateSent: NOW - 12 * HOUR }, true, NOW)).toBe('send');
  });
});

describe('notDownloaded', () => {
  it('keeps the recipients whose address no download carries, ignoring case', () => {
    const recipients = [{ email: 'a@example.com' }, { email: 'B@example.com' }, { email: 'c@example.com' }];
    expect(notDownloaded(recipients, new Set(['b@example.com']))).toEqual([
      { email: 'a@example.com' },
      { email: 'c@example.com' },
    ]);
    expect(notDownloaded(recipients, new Set())).toEqual(recipients);
    expect(notDownloaded(recipients, new Set(['a@example.com', 'b@example.com', 'c@example.com']))).toEqual([]);
  });
});
