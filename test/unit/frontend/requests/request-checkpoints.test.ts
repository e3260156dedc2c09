import { describe, expect, it } from 'vitest';
import { requestCheckpointKey, requestCheckpointStorage } from '@/features/requests/request-checkpoints';
import {
  CHECKPOINT_STORAGE_KEY,
  findCheckpoint,
  saveCheckpoint,
  type CheckpointStorage,
} from '@/shared/upload/checkpoint';

function memoryStorage(): CheckpointStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const NOW = Date.UTC(2026, 10, 25);
const checkpoint = {
  id: 'abc1234',
  uploadToken: 'tok',
  createdAt: NOW,
  files: [{ fileId: 'f1', fileName: 'a.pdf', size: 10 }],
};

describe("a request's resume checkpoints", () => {
  it("live under the request's own key, apart from the send form's and other requests'", () => {
    const base = memoryStorage();
    expect(saveCheckpoint(checkpoint, requestCheckpointStorage('AbCd1234', base), NOW)).toBe(true);
    expect([...base.data.keys()]).toEqual([requestCheckpointKey('AbCd1234')]);
    expect(requestCheckpointKey('AbCd1234')).not.toBe(CHECKPOINT_STORAGE_KEY);
    const picked = [{ fileName: 'a.pdf', size: 10 }];
    expect(findCheckpoint(picked, NOW, requestCheckpointStorage('AbCd1234', base))?.id).toBe('abc1234');
    // the home page's send form and another request see nothing
    expect(findCheckpoint(picked, NOW, base)).toBeNull();
    expect(findCheckpoint(picked, NOW, requestCheckpointStorage('Other123', base))).toBeNull();
  });

  it('is none where the browser keeps no storage', () => {
    expect(requestCheckpointStorage('AbCd1234', null)).toBeNull();
  });
});
