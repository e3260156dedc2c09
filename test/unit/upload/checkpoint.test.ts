import { describe, expect, it } from 'vitest';
import { RESUME_WINDOW_SECONDS } from '../../../functions/domain/expiry';
import {
  CHECKPOINT_STORAGE_KEY,
  clearCheckpoint,
  findCheckpoint,
  matchCheckpointFiles,
  saveCheckpoint,
  type CheckpointStorage,
  type UploadCheckpoint,
} from '../../../frontend/src/shared/upload/checkpoint';

class MemoryStorage implements CheckpointStorage {
  readonly data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

const T0 = Date.UTC(2025, 0, 10, 12);
const WINDOW_MS = RESUME_WINDOW_SECONDS * 1000;

function checkpoint(over: Partial<UploadCheckpoint> = {}): UploadCheckpoint {
  return {
    id: 'Ab3dE7x',
    uploadToken: 't'.repeat(43),
    createdAt: T0,
    files: [
      { fileId: 'fileAAAAAA', fileName: 'video.mp4', size: 734_003_200 },
      { fileId: 'fileBBBBBB', fileName: 'notes.txt', size: 1200, itemPath: 'trip/notes.txt' },
    ],
    ...over,
  };
}

const picked = [
  { fileName: 'notes.txt', size: 1200, itemPath: 'trip/notes.txt' },
  { fileName: 'video.mp4', size: 734_003_200 },
];

describe('upload checkpoints', () => {
  it('finds a saved checkpoint when the same files are picked again within the window', () => {
    const storage = new MemoryStorage();
    expect(saveCheckpoint(checkpoint(), storage, T0)).toBe(true);
    expect(findCheckpoint(picked, T0 + WINDOW_MS - 1, storage)).toEqual(checkpoint());
  });

  it('also matches when extra files are picked', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(checkpoint(), storage, T0);
    expect(findCheckpoint([...picked, { fileName: 'extra.png', size: 5 }], T0 + 1000, storage)?.id).toBe('Ab3dE7x');
  });

  it('does not match when a file has the same name but another size, or is missing', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(checkpoint(), storage, T0);
    expect(findCheckpoint([picked[0]!, { fileName: 'video.mp4', size: 734_003_201 }], T0 + 1000, storage)).toBeNull();
    expect(findCheckpoint([picked[1]!], T0 + 1000, storage)).toBeNull();
    expect(findCheckpoint([{ fileName: 'Video.mp4', size: 734_003_200 }, picked[0]!], T0 + 1000, storage)).toBeNull();
  });

  it('needs a distinct picked file for each checkpoint file', () => {
    const twins = checkpoint({
      files: [
        { fileId: 'fileAAAAAA', fileName: 'a.txt', size: 5, itemPath: 'x/a.txt' },
        { fileId: 'fileBBBBBB', fileName: 'a.txt', size: 5, itemPath: 'y/a.txt' },
      ],
    });
    expect(matchCheckpointFiles(twins, [{ fileName: 'a.txt', size: 5 }])).toBeNull();
    const pairs = matchCheckpointFiles(twins, [
      { fileName: 'a.txt', size: 5, itemPath: 'y/a.txt' },
      { fileName: 'a.txt', size: 5, itemPath: 'x/a.txt' },
    ]);
    expect(pairs?.get('fileAAAAAA')?.itemPath).toBe('x/a.txt');
    expect(pairs?.get('fileBBBBBB')?.itemPath).toBe('y/a.txt');
  });

  it('expires after the resume window', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(checkpoint(), storage, T0);
    expect(findCheckpoint(picked, T0 + WINDOW_MS, storage)).toBeNull();
    // a clock set before the checkpoint was written is not trusted either
    expect(findCheckpoint(picked, T0 - 1, storage)).toBeNull();
  });

  it('returns the newest matching checkpoint and drops expired ones when saving', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(checkpoint({ id: 'Old0001', createdAt: T0 - WINDOW_MS }), storage, T0 - WINDOW_MS);
    saveCheckpoint(checkpoint({ id: 'Mid0001', createdAt: T0 - 1000 }), storage, T0 - 1000);
    saveCheckpoint(checkpoint({ id: 'New0001' }), storage, T0);
    expect(findCheckpoint(picked, T0 + 10, storage)?.id).toBe('New0001');
    const ids = (JSON.parse(storage.data.get(CHECKPOINT_STORAGE_KEY)!) as UploadCheckpoint[]).map((c) => c.id);
    expect(ids).toEqual(['Mid0001', 'New0001']);
  });

  it('replaces the checkpoint of the same transfer instead of adding a second', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(checkpoint(), storage, T0);
    saveCheckpoint(checkpoint({ uploadToken: 'u'.repeat(43) }), storage, T0);
    const all = JSON.parse(storage.data.get(CHECKPOINT_STORAGE_KEY)!) as UploadCheckpoint[];
    expect(all).toHaveLength(1);
    expect(all[0]!.uploadToken).toBe('u'.repeat(43));
  });

  it('clears a checkpoint by transfer id and leaves the others', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(checkpoint(), storage, T0);
    saveCheckpoint(checkpoint({ id: 'Other01' }), storage, T0);
    clearCheckpoint('Ab3dE7x', storage);
    expect(findCheckpoint(picked, T0 + 1, storage)?.id).toBe('Other01');
    clearCheckpoint('Other01', storage);
    expect(storage.data.has(CHECKPOINT_STORAGE_KEY)).toBe(false);
  });

  it('tolerates corrupt or foreign data in storage', () => {
    const storage = new MemoryStorage();
    for (const raw of [
      '{not json',
      '"a string"',
      '{"id":"x"}',
      JSON.stringify([{ id: 1 }, null, { ...checkpoint(), files: 'no' }]),
    ]) {
      storage.data.set(CHECKPOINT_STORAGE_KEY, raw);
      expect(findCheckpoint(picked, T0, storage)).toBeNull();
      expect(() => clearCheckpoint('Ab3dE7x', storage)).not.toThrow();
    }
    // a valid entry next to broken ones is still found, and saving rewrites the list cleanly
    storage.data.set(CHECKPOINT_STORAGE_KEY, JSON.stringify([{ id: 1 }, checkpoint()]));
    expect(findCheckpoint(picked, T0 + 1, storage)?.id).toBe('Ab3dE7x');
    saveCheckpoint(checkpoint({ id: 'New0001' }), storage, T0);
    expect((JSON.parse(storage.data.get(CHECKPOINT_STORAGE_KEY)!) as unknown[]).length).toBe(2);
  });

  it('does not throw when storage refuses to be read or written', () => {
    const broken: CheckpointStorage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(saveCheckpoint(checkpoint(), broken, T0)).toBe(false);
    expect(findCheckpoint(picked, T0, broken)).toBeNull();
    expect(() => clearCheckpoint('Ab3dE7x', broken)).not.toThrow();
  });
});
