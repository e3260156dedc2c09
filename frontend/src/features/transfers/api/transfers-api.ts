/**
 * The transfers screens' calls (functions/domain/dashboard-api.ts and transfer-api.ts), all with
 * the signed-in user's token. Actions are not retried on 5xx: a forward or a mail whose answer
 * was lost may still have happened, and a second one would copy or mail twice.
 */
import type {
  ChangeExpiryRequest,
  ChangePasswordRequest,
  EmailSendRequest,
  ForwardRequest,
  ForwardResponse,
  ListFilter,
  TransferDetail,
  TransferListResponse,
  TransferState,
} from '@domain/dashboard-api';
import type { AddFilesRequest, CreateTransferResponse } from '@domain/transfer-api';
import type { PreviewsResponse } from '@domain/previews';
import { collectPreviewPages } from '@domain/preview-pages';
import { authedFetch } from '@/lib/session/session';

export interface ListParams {
  readonly filter: ListFilter;
  readonly skip?: number;
  readonly q?: string;
}

/** The query string of GET /getQs: empty values left out, so the server's defaults apply. */
export function listQueryString(params: ListParams): string {
  const search = new URLSearchParams({ filter: params.filter });
  if (params.skip) search.set('skip', String(params.skip));
  const q = params.q?.trim();
  if (q) search.set('q', q);
  return search.toString();
}

export function fetchTransferList(params: ListParams, signal?: AbortSignal): Promise<TransferListResponse> {
  return authedFetch<TransferListResponse>(`/getQs?${listQueryString(params)}`, signal ? { signal } : {});
}

export function fetchTransferDetail(slug: string, signal?: AbortSignal): Promise<TransferDetail> {
  return authedFetch<TransferDetail>(`/getQs?${new URLSearchParams({ slug }).toString()}`, signal ? { signal } : {});
}

/** The TransferModal's previews (its sender, admin or a team mate it is shared with). */
export function fetchTransferPreviews(slug: string, signal?: AbortSignal): Promise<PreviewsResponse> {
  // paged (each answer stays under Lambda's 6 MB): every page, one after another
  return collectPreviewPages((cursor) =>
    authedFetch<PreviewsResponse>(
      `/transfers/${encodeURIComponent(slug)}/previews${cursor ? `?${new URLSearchParams({ cursor }).toString()}` : ''}`,
      signal ? { signal } : {},
    ),
  );
}

const once = { retries: 0 } as const;

export function deleteTransfer(slug: string): Promise<{ deleted: true }> {
  return authedFetch<{ deleted: true }>('/deleteTransfer', { method: 'POST', body: { slug } });
}

export function forwardTransfer(body: ForwardRequest): Promise<ForwardResponse> {
  return authedFetch<ForwardResponse>('/transfers/forward', { method: 'POST', body, ...once });
}

export function resendTransfer(body: EmailSendRequest): Promise<{ sent: string[] }> {
  return authedFetch<{ sent: string[] }>('/transfers/emailSend', { method: 'POST', body, ...once });
}

export function remindRecipients(slug: string): Promise<{ sent: string[] }> {
  return authedFetch<{ sent: string[] }>('/transfers/remind', { method: 'POST', body: { slug }, ...once });
}

export function changeExpiry(body: ChangeExpiryRequest): Promise<{ expiryDate: number; state: TransferState }> {
  return authedFetch<{ expiryDate: number; state: TransferState }>('/transfers/expiry', { method: 'POST', body });
}

export function changePassword(body: ChangePasswordRequest): Promise<{ hasPassword: boolean }> {
  return authedFetch<{ hasPassword: boolean }>('/transfers/password', { method: 'POST', body });
}

/** The upload plan for files added to a sent transfer (spec §4 TransferModal add-files). */
export function planAddedFiles(body: AddFilesRequest): Promise<CreateTransferResponse> {
  return authedFetch<CreateTransferResponse>('/transfers/addFiles', { method: 'PATCH', body, ...once });
}
