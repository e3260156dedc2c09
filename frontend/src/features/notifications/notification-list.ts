import type { NotificationView, NotificationsResponse } from '@domain/dashboard-api';

export interface NotificationsView {
  readonly notifications: readonly NotificationView[];
  readonly unreadCount: number;
}

/**
 * Reads the user made here that the server may not reflect yet (a poll that started before
 * POST /notifications/read landed): shown read, and no longer counted. An id the server already
 * reports read is settled and leaves `pending`.
 */
export function applyLocalReads(response: NotificationsResponse, pending: Set<string>): NotificationsView {
  let stillUnread = 0;
  const notifications = response.notifications.map((n) => {
    if (!pending.has(n._id)) return n;
    if (n.read) {
      pending.delete(n._id);
      return n;
    }
    stillUnread += 1;
    return { ...n, read: true };
  });
  return { notifications, unreadCount: Math.max(0, response.unreadCount - stillUnread) };
}

/** Unread notifications in `next` that `previous` did not have; none on the first load. */
export function arrivals(
  previous: readonly NotificationView[] | null,
  next: readonly NotificationView[],
): NotificationView[] {
  if (previous === null) return [];
  const known = new Set(previous.map((n) => n._id));
  return next.filter((n) => !n.read && !known.has(n._id));
}

/** The list after the user opened one: marked read, the count one lower if it was unread. */
export function markedRead(view: NotificationsView, id: string): NotificationsView {
  const target = view.notifications.find((n) => n._id === id);
  if (!target || target.read) return view;
  return {
    notifications: view.notifications.map((n) => (n._id === id ? { ...n, read: true } : n)),
    unreadCount: Math.max(0, view.unreadCount - 1),
  };
}

/** What makes a notification news again: its time, and a review burst's growing counts. */
const stateOf = (n: NotificationView) =>
  n.review ? `${n.dlDate}:${n.review.comments}:${n.review.approvals}:${n.review.changesRequested}` : `${n.dlDate}`;

/**
 * The transfers whose notifications are new or changed since `previous` (a review's burst keeps
 * its id and counts up in place); none on the first load, which has nothing to compare with.
 */
export function changedSlugs(
  previous: readonly NotificationView[] | null,
  next: readonly NotificationView[],
): string[] {
  if (previous === null) return [];
  const known = new Map(previous.map((n) => [n._id, stateOf(n)]));
  return [...new Set(next.filter((n) => known.get(n._id) !== stateOf(n)).map((n) => n.slug))];
}

/**
 * The window event that tells the screens showing transfers (the list, an open review) to fetch
 * again, with `detail.slugs`. Spelled out again in features/transfers/hooks/use-transfer-list.ts
 * (a unit test holds them equal): features do not import each other, and a module of its own
 * would be one more file on the dashboard's first load.
 */
export const TRANSFER_ACTIVITY_EVENT = 'sendbridge:transfer-activity';
