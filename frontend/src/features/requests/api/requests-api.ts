/**
 * File requests' calls (functions/domain/requests-api.ts has the routes and shapes): the
 * requester's screens with the signed-in user's token, the visitor's page without one.
 */
import type {
  CreateRequestInput,
  ListRequestsResponse,
  PublicRequestResponse,
  RequestDetailResponse,
  RequestSummary,
  StartRequestUploadInput,
  UpdateRequestInput,
} from '@domain/requests-api';
import { SENDER_TOKEN_HEADER, type CreateTransferResponse } from '@domain/transfer-api';
import { apiFetch } from '@/lib/api';
import { authedFetch } from '@/lib/session/session';

/** GET /requests?userid= : the requester's requests, newest first. */
export function fetchRequests(userId: string, signal?: AbortSignal): Promise<ListRequestsResponse> {
  return authedFetch<ListRequestsResponse>(
    `/requests?${new URLSearchParams({ userid: userId }).toString()}`,
    signal ? { signal } : {},
  );
}

/** GET /requests?slug= : one request of the caller with its uploads. */
export function fetchRequestDetail(id: string, signal?: AbortSignal): Promise<RequestDetailResponse> {
  return authedFetch<RequestDetailResponse>(
    `/requests?${new URLSearchParams({ slug: id }).toString()}`,
    signal ? { signal } : {},
  );
}

/** POST /requests, with an Idempotency-Key: retried, and a retry whose first answer was lost makes no second request. */
export function createRequest(body: CreateRequestInput): Promise<RequestSummary> {
  return authedFetch<RequestSummary>('/requests', { method: 'POST', body });
}

/** PATCH /requests/{id}: close, reopen or edit. */
export function updateRequest(id: string, body: UpdateRequestInput): Promise<RequestSummary> {
  return authedFetch<RequestSummary>(`/requests/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

/** DELETE /requests/{id}/uploads/{slug}: one visitor's upload and its files. */
export function deleteRequestUpload(id: string, slug: string): Promise<unknown> {
  return authedFetch<unknown>(`/requests/${encodeURIComponent(id)}/uploads/${encodeURIComponent(slug)}`, {
    method: 'DELETE',
  });
}

/** GET /r/{id} (public): 404 unknown, 410 closed or past due. */
export function fetchPublicRequest(id: string, signal?: AbortSignal): Promise<PublicRequestResponse> {
  return apiFetch<PublicRequestResponse>(`/r/${encodeURIComponent(id)}`, signal ? { signal } : {});
}

/**
 * POST /r/{id}/uploads (public, the visitor's verified address): the upload and its plan, as
 * a transfer creation answers. Keyed and retried, like a transfer creation.
 */
export function startRequestUpload(
  id: string,
  body: StartRequestUploadInput,
  senderToken: string,
  signal?: AbortSignal,
): Promise<CreateTransferResponse> {
  return apiFetch<CreateTransferResponse>(`/r/${encodeURIComponent(id)}/uploads`, {
    body,
    headers: { [SENDER_TOKEN_HEADER]: senderToken },
    ...(signal ? { signal } : {}),
  });
}
