import { useCallback, useEffect, useRef, useState } from 'react';
import type { NotificationView } from '@domain/dashboard-api';
import { deleteNotifications, fetchNotifications, markNotificationRead } from '../notifications-api';
import {
  TRANSFER_ACTIVITY_EVENT,
  applyLocalReads,
  arrivals,
  changedSlugs,
  markedRead,
  type NotificationsView,
} from '../notification-list';
import { POLL_MS, browserPollerDeps, startVisiblePolling } from '../poller';

export interface NotificationsState extends NotificationsView {
  readonly status: 'loading' | 'ready' | 'error';
  /** unread ones the latest poll brought (announced by the bell's live region) */
  readonly arrived: readonly NotificationView[];
}

const INITIAL: NotificationsState = { notifications: [], unreadCount: 0, status: 'loading', arrived: [] };

/**
 * The signed-in user's notifications. `live` (the dashboard's screens): polled every POLL_MS
 * while the tab is visible and at once when it becomes visible again. Elsewhere (the public
 * pages, which must leave the network idle once loaded) read once, and again when the bell
 * opens. The owner unmounts it on sign-out.
 */
export function useNotifications(live = true) {
  const [state, setState] = useState<NotificationsState>(INITIAL);
  const pendingRead = useRef(new Set<string>());
  const previous = useRef<readonly NotificationView[] | null>(null);
  const loaded = useRef(false);

  const refresh = useCallback(async () => {
    try {
      const view = applyLocalReads(await fetchNotifications(), pendingRead.current);
      const arrived = arrivals(previous.current, view.notifications);
      // the list and an open review fetch again: a comment or download shows within a poll
      const slugs = changedSlugs(previous.current, view.notifications);
      previous.current = view.notifications;
      if (slugs.length > 0) window.dispatchEvent(new CustomEvent(TRANSFER_ACTIVITY_EVENT, { detail: { slugs } }));
      loaded.current = true;
      setState({ ...view, status: 'ready', arrived });
    } catch (err) {
      // Keep what is shown; only a bell that never loaded says so.
      setState((s) => (s.status === 'ready' ? s : { ...s, status: 'error' }));
      throw err;
    }
  }, []);

  useEffect(() => {
    if (live) return startVisiblePolling(refresh, POLL_MS, browserPollerDeps());
    if (!loaded.current) void refresh().catch(() => undefined);
    return undefined;
  }, [refresh, live]);

  const markRead = useCallback((id: string) => {
    pendingRead.current.add(id);
    setState((s) => ({ ...s, ...markedRead(s, id) }));
    // A failed mark is retried by nobody: the item reads unread again on the next poll.
    markNotificationRead(id).catch(() => pendingRead.current.delete(id));
  }, []);

  const clearAll = useCallback(async () => {
    await deleteNotifications('all');
    previous.current = [];
    setState({ notifications: [], unreadCount: 0, status: 'ready', arrived: [] });
  }, []);

  return { ...state, refresh, markRead, clearAll };
}
