/**
 * The download page's calls (functions/domain/transfer-api.ts). Each attempt may take up to
 * the spec's 40 s download request timeout; apiFetch retries network errors and 5xx.
 */
import { DOWNLOAD_REQUEST_TIMEOUT_MS } from '@domain/ui-timings';
import type { DownloadView, ExtensionRequest, GetDownloadRequest, ZipResponse } from '@domain/transfer-api';
import type { PreviewsResponse } from '@domain/previews';
import { apiFetch } from '@/lib/api';

/** Who is asking: the transfer, the password once unlocked, the recipient id of an emailed link, a verified recipient's session. */
export interface DownloadAccess {
  readonly id: string;
  readonly password?: string;
  readonly recipient?: string;
  readonly access?: string;
}

/** The body every download call sends: the transfer, and the password and recipient when known. */
export function accessBody(access: DownloadAccess): GetDownloadRequest {
  return {
    id: access.id,
    ...(access.password !== undefined ? { password: access.password } : {}),
    ...(access.recipient !== undefined ? { recipient: access.recipient } : {}),
    ...(access.access !== undefined ? { access: access.access } : {}),
  };
}

export function fetchDownload(access: DownloadAccess, signal?: AbortSignal): Promise<DownloadView> {
  return apiFetch<DownloadView>('/getDownload', {
    body: accessBody(access),
    timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS,
    signal,
  });
}

/** A short-lived presigned GET served as an attachment. */
export function fetchFileUrl(access: DownloadAccess, fileId: string, signal?: AbortSignal): Promise<{ url: string }> {
  return apiFetch<{ url: string }>('/getDownload/file', {
    body: { ...accessBody(access), fileId },
    timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS,
    signal,
  });
}

/** The files' previews (inline URLs of 600 s, thumbnails); the same access as a download. */
export async function fetchPreviews(access: DownloadAccess, signal?: AbortSignal): Promise<PreviewsResponse> {
  // Paged (each answer stays under Lambda's 6 MB): every page, one after another. The loop is
  // domain/preview-pages.ts's, written out here: a shared chunk would cost the page's first load.
  const page = (cursor?: string) =>
    apiFetch<PreviewsResponse>('/getDownload/previews', {
      body: { ...accessBody(access), ...(cursor ? { cursor } : {}) },
      timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS,
      signal,
    });
  const first = await page();
  const files = [...first.files];
  for (let cursor = first.nextCursor; cursor !== undefined; ) {
    const next = await page(cursor);
    files.push(...next.files);
    cursor = next.nextCursor;
  }
  return { expiresIn: first.expiresIn, files };
}

/** Starts the ZIP of all files, or reads it once built; call again while it says 'building'. */
export function requestZip(access: DownloadAccess, signal?: AbortSignal): Promise<ZipResponse> {
  return apiFetch<ZipResponse>('/zip', { body: accessBody(access), timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS, signal });
}

/** Asks the sender of an expired transfer for more time; 202 with no body. */
export async function requestExtension(request: ExtensionRequest, signal?: AbortSignal): Promise<void> {
  await apiFetch<unknown>('/extension/request', { body: request, timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS, signal });
}

/** 'Report this transfer'; 202, or 429 when this client already reported it. */
export async function reportTransfer(
  request: import('@domain/abuse-api').AbuseReportRequest,
  signal?: AbortSignal,
): Promise<void> {
  await apiFetch<unknown>('/getDownload/report', { body: request, timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS, signal });
}

// A verified recipient's session token, kept for the tab (sessionStorage) so a reload does not
// ask for a new code; the server checks it against the live access list on every call.
const keyOf = (id: string) => `sendbridge.access.${id}`;

export function storedAccess(id: string): string | undefined {
  try {
    return sessionStorage.getItem(keyOf(id)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeAccess(id: string, token: string | undefined): void {
  try {
    if (token === undefined) sessionStorage.removeItem(keyOf(id));
    else sessionStorage.setItem(keyOf(id), token);
  } catch {
    // storage refused (private mode): the session lives in memory only
  }
}
