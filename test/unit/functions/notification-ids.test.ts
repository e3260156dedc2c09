import { describe, expect, it } from 'vitest';
import {
  eventIdAt,
  eventTimeOf,
  notificationItem,
  NOTIFICATION_TTL_SECONDS,
} from '../../../functions/data/notifications';
import { notificationIdSchema } from '../../../functions/domain/dashboard-api';
import { keys } from '../../../functions/data/keys';

describe('notification ids carry their time (no pointer item needed)', () => {
  it('reads back the time of a UUIDv7 made for it, and the id passes the contract schema', () => {
    for (const at of [0, 1, 1_700_000_000_123, Date.UTC(2999, 11, 31)]) {
      const id = eventIdAt(at);
      expect(eventTimeOf(id)).toBe(at);
      expect(notificationIdSchema.safeParse(id).success).toBe(true);
    }
    expect(eventIdAt(5)).not.toBe(eventIdAt(5));
  });

  it('knows no time for anything but a UUIDv7', () => {
    expect(eventTimeOf('0190b6a0-0000-4000-8000-000000000000')).toBeUndefined(); // v4
    expect(eventTimeOf('ffffffff-ffff-ffff-ffff-ffffffffffff')).toBeUndefined();
    expect(eventTimeOf('------------------------------------')).toBeUndefined();
    expect(eventTimeOf('')).toBeUndefined();
  });

  it('an unread notification is in the unread index and expires after 180 days', () => {
    const at = Date.UTC(2025, 5, 1);
    const n = {
      _id: eventIdAt(at),
      slug: 'AAAAAAA',
      read: false,
      dlDate: at,
      dlCountryCode: 'DE',
      fileName: 'a.txt',
      dlOrigin: 'file' as const,
    };
    const item = notificationItem('u1', n);
    expect(item).toMatchObject({
      ...keys.notification('u1', at, n._id),
      ...keys.unreadNotification('u1', at, n._id),
      ttl: at / 1000 + NOTIFICATION_TTL_SECONDS,
    });
    expect(notificationItem('u1', { ...n, read: true })).not.toHaveProperty('gsi1pk');
  });
});
