/**
 * Resume checkpoints of uploads to one file request. They live under their own storage key per
 * request, so the home page's send form never offers to resume a visitor's upload to a request
 * (and a request page never picks up a send), while the send form's checkpoint code is reused.
 */
import { CHECKPOINT_STORAGE_KEY, type CheckpointStorage } from '@/shared/upload/checkpoint';

export function requestCheckpointKey(requestId: string): string {
  return `${CHECKPOINT_STORAGE_KEY}.request.${requestId}`;
}

function browserStorage(): CheckpointStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The checkpoint storage of one request: the same calls, answered from the request's own key. */
export function requestCheckpointStorage(
  requestId: string,
  base: CheckpointStorage | null = browserStorage(),
): CheckpointStorage | null {
  if (!base) return null;
  const key = requestCheckpointKey(requestId);
  return {
    getItem: () => base.getItem(key),
    setItem: (_key, value) => base.setItem(key, value),
    removeItem: () => base.removeItem(key),
  };
}
