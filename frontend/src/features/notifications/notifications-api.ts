/** The bell's calls (functions/domain/dashboard-api.ts), with the signed-in user's token. */
import type { NotificationsResponse } from '@domain/dashboard-api';
import { authedFetch } from '@/lib/session/session';

/** A poll fails fast and waits for the next one rather than retrying (the poller runs again in 15 s). */
const POLL_INIT = { retries: 0, timeoutMs: 10_000 } as const;

export function fetchNotifications(): Promise<NotificationsResponse> {
  return authedFetch<NotificationsResponse>('/notifications', { method: 'POST', body: {}, ...POLL_INIT });
}

export function markNotificationRead(notifyId: string): Promise<{ read: true }> {
  return authedFetch<{ read: true }>('/notifications/read', { method: 'POST', body: { notifyId } });
}

/** An id, 'all' (Clear all alerts) or 'Allread' (spec §7). */
export function deleteNotifications(notifyId: string): Promise<{ deleted: number }> {
  return authedFetch<{ deleted: number }>('/deleteNotification', { method: 'POST', body: { notifyId } });
}
