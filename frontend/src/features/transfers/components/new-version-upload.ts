/**
 * Sends a new version of a file of a sent transfer: POST /transfers/{id}/files/{fileId}/versions
 * plans it (one file, a new upload token), the send form's upload engine uploads it (no resume
 * checkpoint: that belongs to new sends) and completes the transfer. Loaded only when the
 * sender uses the action, so the dashboard's first load does not carry the engine.
 */
import type { CreateTransferResponse, NewVersionRequest } from '@domain/transfer-api';
import type { UploadProgress } from '@/shared/upload/engine';
import { uploadNewTransfer } from '@/shared/upload/send-flow';
import { authedFetch } from '@/lib/session/session';

/** The upload plan of the new version (one file, a new upload token); not retried: a lost answer may have planned it. */
function planNewVersion(slug: string, fileId: string, body: NewVersionRequest): Promise<CreateTransferResponse> {
  return authedFetch<CreateTransferResponse>(
    `/transfers/${encodeURIComponent(slug)}/files/${encodeURIComponent(fileId)}/versions`,
    { method: 'POST', body, retries: 0 },
  );
}

export async function uploadNewVersion(
  slug: string,
  fileId: string,
  file: File,
  notify: boolean,
  callbacks: { readonly signal: AbortSignal; onProgress(progress: UploadProgress): void },
): Promise<CreateTransferResponse> {
  const created = await planNewVersion(slug, fileId, {
    fileName: file.name,
    size: file.size,
    ...(notify ? { notify: true } : {}),
  });
  // the plan's name and folder are the server's (normalised, the replaced file's folder)
  const plan = created.files[0]!;
  await uploadNewTransfer(
    created,
    [{ fileName: plan.fileName, size: file.size, ...(plan.itemPath ? { itemPath: plan.itemPath } : {}), blob: file }],
    { signal: callbacks.signal, onProgress: callbacks.onProgress, onWarning: () => undefined },
    { storage: null },
  );
  return created;
}
