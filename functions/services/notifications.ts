/**
 * The notifications panel (spec §2 Notifications panel, §7 POST /notifications,
 * POST /deleteNotification): the caller's newest notifications with the unread count, marking
 * one read, deleting one, all, or the read ones. Every call works under the caller's own pk
 * only, so another user's id is simply not found. An open dashboard polls this every
 * NOTIFICATIONS_POLL_MS while visible (docs/decisions/ "Notifications: polling, not WebSockets").
 */
import { NOTIFICATIONS_PAGE, UNREAD_COUNT_CAP, type NotificationsResponse } from '../domain/dashboard-api';
import * as data from '../data/notifications';
import { notFound } from '../lib/errors';

const NOT_FOUND_MESSAGE = 'This notification is no longer available.';

/** POST /notifications: one Query of the newest page and one bounded COUNT Query, in parallel. */
export async function notificationsOf(userId: string, now = Date.now()): Promise<NotificationsResponse> {
  const [notifications, unreadCount] = await Promise.all([
    data.listNotifications(userId, NOTIFICATIONS_PAGE, now),
    data.countUnread(userId, UNREAD_COUNT_CAP, now),
  ]);
  return { notifications, unreadCount };
}

/** POST /notifications/read */
export async function readNotification(userId: string, notifyId: string, now = Date.now()): Promise<{ read: true }> {
  if (!(await data.markRead(userId, notifyId, now))) throw notFound('notification_not_found', NOT_FOUND_MESSAGE);
  return { read: true };
}

/** POST /deleteNotification: an id, 'all', or 'Allread' (the read ones). */
export async function deleteNotifications(userId: string, notifyId: string): Promise<{ deleted: number }> {
  if (notifyId === 'all') return { deleted: await data.deleteNotifications(userId, 'all') };
  if (notifyId === 'Allread') return { deleted: await data.deleteNotifications(userId, 'read') };
  if (!(await data.deleteNotification(userId, notifyId))) throw notFound('notification_not_found', NOT_FOUND_MESSAGE);
  return { deleted: 1 };
}
