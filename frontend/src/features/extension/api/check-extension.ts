import type { CheckExtensionResponse } from '@domain/transfer-api';
import { DOWNLOAD_REQUEST_TIMEOUT_MS } from '@domain/ui-timings';
import { apiFetch } from '@/lib/api';

/** The sender's approve link: grants 48 more hours (idempotent on the server). */
export function checkExtension(token: string, signal?: AbortSignal): Promise<CheckExtensionResponse> {
  return apiFetch<CheckExtensionResponse>('/checkExtension', {
    body: { token },
    timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS,
    signal,
  });
}
