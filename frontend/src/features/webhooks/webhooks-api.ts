/** The webhooks screen's calls (contract: functions/domain/webhooks-api.ts). */
import type {
  CreatedWebhook,
  DeliveryView,
  EventType,
  WebhookEndpointView,
  WebhookListResponse,
  WebhookSettings,
} from '@domain/webhooks-api';
import { authedFetch } from '@/lib/session/session';

const at = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export const fetchWebhooks = (signal?: AbortSignal) =>
  authedFetch<WebhookListResponse>('/webhooks', { ...(signal ? { signal } : {}) });
export const createWebhook = (url: string, events: readonly EventType[], description?: string) =>
  authedFetch<CreatedWebhook>('/webhooks', {
    method: 'POST',
    body: { url, events, ...(description ? { description } : {}) },
  });
export const updateWebhook = (
  id: string,
  edit: { events?: readonly EventType[]; enabled?: boolean; description?: string; url?: string },
) => authedFetch<{ endpoint: WebhookEndpointView }>(at(id), { method: 'PATCH', body: edit });
export const deleteWebhook = (id: string) => authedFetch<{ removed: true }>(at(id), { method: 'DELETE' });
export const rotateWebhookSecret = (id: string) =>
  authedFetch<CreatedWebhook>(`${at(id)}/rotate`, { method: 'POST', body: {} });
export const fetchDeliveries = (id: string, signal?: AbortSignal) =>
  authedFetch<{ deliveries: DeliveryView[] }>(`${at(id)}/deliveries`, { ...(signal ? { signal } : {}) });
export const redeliver = (id: string, deliveryId: string) =>
  authedFetch<{ delivery: DeliveryView }>(`${at(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, {
    method: 'POST',
  });
export const sendTestEvent = (id: string) =>
  authedFetch<{ delivery: DeliveryView }>(`${at(id)}/test`, { method: 'POST' });
export const saveWebhookSettings = (settings: WebhookSettings) =>
  authedFetch<{ settings: WebhookSettings }>('/webhook-settings', { method: 'PUT', body: settings });

/** While a delivery log is open and a delivery is still pending, it is asked for again this often. */
export const DELIVERY_POLL_MS = 3000;
