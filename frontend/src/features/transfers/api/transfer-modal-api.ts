/**
 * The TransferModal's own calls (deliveries and receipts, the access list, download limits):
 * apart from transfers-api.ts so the dashboard's list does not load them before a modal opens.
 */
import type { DownloadLimitsView, SetDownloadLimitRequest } from '@domain/dashboard-api';
import type { DeliveriesResponse } from '@domain/receipts-api';
import type { ReceiptDocument } from '@domain/receipt-format';
import type { AccessListResponse } from '@domain/recipient-access';
import type { AccessAddRequest, AccessChangeRequest, AccessSettingsRequest } from '@domain/recipient-access-api';
import { authedFetch } from '@/lib/session/session';

const once = { retries: 0 } as const;

/** The TransferModal's deliveries (downloads served to the end), each with a signed receipt; the sender only. */
export function fetchDeliveries(slug: string, signal?: AbortSignal): Promise<DeliveriesResponse> {
  return authedFetch<DeliveriesResponse>(`/transfers/${encodeURIComponent(slug)}/deliveries`, signal ? { signal } : {});
}

/** One delivery's signed receipt file, as the server signed it. */
export function fetchReceipt(slug: string, deliveryId: string): Promise<ReceiptDocument> {
  return authedFetch<ReceiptDocument>(
    `/transfers/${encodeURIComponent(slug)}/deliveries/${encodeURIComponent(deliveryId)}/receipt`,
  );
}

/** The access list of a transfer with verified recipients (docs/decisions/0076); each change answers the list. */
export function fetchAccessList(slug: string, signal?: AbortSignal): Promise<AccessListResponse> {
  return authedFetch<AccessListResponse>('/transfers/access', {
    method: 'POST',
    body: { slug },
    ...(signal ? { signal } : {}),
  });
}

export function changeAccessSettings(body: AccessSettingsRequest): Promise<AccessListResponse> {
  return authedFetch<AccessListResponse>('/transfers/access/settings', { method: 'POST', body, ...once });
}

export function addAccessRecipients(body: AccessAddRequest): Promise<AccessListResponse & { mailed: string[] }> {
  return authedFetch<AccessListResponse & { mailed: string[] }>('/transfers/access/add', {
    method: 'POST',
    body,
    ...once,
  });
}

export function changeAccessRecipient(body: AccessChangeRequest): Promise<AccessListResponse> {
  return authedFetch<AccessListResponse>('/transfers/access/recipient', { method: 'POST', body, ...once });
}

/** The transfer's download limits and their use (decision 0077). */
export function fetchDownloadLimits(slug: string): Promise<DownloadLimitsView> {
  return authedFetch<DownloadLimitsView>(`/transfers/${encodeURIComponent(slug)}/download-limit`);
}

/** Sets or removes (limit null) the download limit of the transfer, or of one recipient. */
export function changeDownloadLimit(slug: string, body: SetDownloadLimitRequest): Promise<DownloadLimitsView> {
  return authedFetch<DownloadLimitsView>(`/transfers/${encodeURIComponent(slug)}/download-limit`, {
    method: 'PATCH',
    body,
  });
}
