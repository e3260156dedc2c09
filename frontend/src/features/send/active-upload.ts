/**
 * What the quick send and the file-request page share around one running upload: its handle,
 * the upload engine's lazy loader and the progress it starts from.
 */
import { totalSize } from '@domain/file-filters';
import { importWithRetry } from '@/lib/import-with-retry';
import type { PickedFile } from './send-state';
import type { UploadProgress } from './upload/engine';

export interface ActiveUpload {
  readonly controller: AbortController;
  /** known once the transfer (or the request upload) exists on the server */
  transfer: { readonly id: string; readonly uploadToken: string } | null;
}

/** The upload engine loads when the first upload, resume or cancel needs it, not with the form. */
export function sendFlow() {
  return importWithRetry(() => import('./send-flow'));
}

export function startingProgress(files: readonly PickedFile[], resuming: boolean): UploadProgress {
  return {
    bytesDone: 0,
    bytesTotal: totalSize(files),
    filesDone: 0,
    filesTotal: files.length,
    speedBps: 0,
    etaMs: null,
    phase: resuming ? 'resuming' : 'getting-ready',
    tryNumber: 1,
  };
}
