import type { RefObject } from 'react';
import { sendFlow, type ActiveUpload } from './active-upload';
import type { CheckpointStorage, UploadCheckpoint } from './checkpoint';

/** The handle of an upload that carries on from its checkpoint (whose token is the upload's). */
export function resumingRun(checkpoint: UploadCheckpoint): ActiveUpload {
  return { controller: new AbortController(), transfer: { id: checkpoint.id, uploadToken: checkpoint.uploadToken } };
}

/**
 * Stops the running upload, if any (false when none runs). The files stay picked; the server
 * drops what was uploaded, best effort: an unfinished upload also expires.
 */
export function stopUpload(active: RefObject<ActiveUpload | null>, storage?: CheckpointStorage | null): boolean {
  const run = active.current;
  if (!run) return false;
  active.current = null;
  run.controller.abort();
  if (run.transfer) {
    const transfer = run.transfer;
    sendFlow()
      .then(({ cancelUpload }) => cancelUpload(transfer, { storage }))
      .catch(() => undefined);
  }
  return true;
}
