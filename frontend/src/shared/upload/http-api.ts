/**
 * The engine's UploadApi over the transfer API (functions/domain/transfer-api.ts), authorised
 * by the per-transfer upload token. apiFetch retries network errors and 5xx itself (spec §7).
 */
import {
  UPLOAD_TOKEN_HEADER,
  type CompleteFileRequest,
  type FileCompleteResponse,
  type RecordPartRequest,
  type RecordPartsRequest,
  type SignManyRequest,
  type SignManyResponse,
  type SignRequest,
  type SignResponse,
  type UploadStateResponse,
} from '@domain/transfer-api';
import { apiFetch } from '@/lib/api';
import type { FileCompletion, UploadApi, UploadApiCallInit } from './engine';

export interface HttpUploadApi extends UploadApi {
  /** resume: which files and parts the server has recorded */
  uploadState(init?: UploadApiCallInit): Promise<UploadStateResponse>;
}

/** Retry-After in seconds (the form the API sends), else undefined. */
export function retryAfterSecondsOf(header: string | null): number | undefined {
  return header && /^\s*\d+\s*$/u.test(header) ? Number(header) : undefined;
}

export function createHttpUploadApi(transferId: string, uploadToken: string): HttpUploadApi {
  const base = `/transfers/${encodeURIComponent(transferId)}`;
  const headers = { [UPLOAD_TOKEN_HEADER]: uploadToken };
  const signalOf = (init?: UploadApiCallInit) => (init?.signal ? { signal: init.signal } : {});

  return {
    sign: (req: SignRequest, init?: UploadApiCallInit) =>
      apiFetch<SignResponse>(`${base}/sign`, { method: 'POST', body: req, headers, ...signalOf(init) }),
    signMany: (req: SignManyRequest, init?: UploadApiCallInit) =>
      apiFetch<SignManyResponse>(`${base}/sign`, { method: 'POST', body: req, headers, ...signalOf(init) }),
    async recordPart(req: RecordPartRequest, init?: UploadApiCallInit) {
      await apiFetch<unknown>(`${base}/parts`, { method: 'POST', body: req, headers, ...signalOf(init) });
    },
    async recordParts(req: RecordPartsRequest, init?: UploadApiCallInit) {
      await apiFetch<unknown>(`${base}/parts`, { method: 'POST', body: req, headers, ...signalOf(init) });
    },
    async completeFile(
      fileId: string,
      init?: UploadApiCallInit,
      req: CompleteFileRequest = {},
    ): Promise<FileCompletion> {
      let retryAfter: string | null = null;
      const answer = await apiFetch<FileCompleteResponse | undefined>(
        `${base}/files/${encodeURIComponent(fileId)}/complete`,
        {
          method: 'POST',
          body: req,
          headers,
          ...signalOf(init),
          onAnswer: (_, h) => (retryAfter = h.get('retry-after')),
        },
      );
      if (answer?.state !== 'completing') return { state: 'complete' };
      const seconds = retryAfterSecondsOf(retryAfter) ?? answer.retryAfterSeconds;
      return { state: 'completing', ...(seconds !== undefined ? { retryAfterSeconds: seconds } : {}) };
    },
    uploadState: (init?: UploadApiCallInit) =>
      apiFetch<UploadStateResponse>(`${base}/upload-state`, { method: 'GET', headers, ...signalOf(init) }),
  };
}
