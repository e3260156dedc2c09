import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  E2E_CHUNK_BYTES,
  cipherSizeOf,
  fileKeyOf,
  newFileParams,
  newTransferKey,
  openingStream,
  sealRange,
  sealedPartSize,
} from '../../../functions/domain/e2e-format';
import type { PlannedFile } from '../../../functions/domain/transfer-api';
import { partSizeFor } from '../../../functions/domain/upload';
import { runUpload, UploadFailedError, type EngineFile } from '../../../frontend/src/shared/upload/engine';
import { partSealerOf } from '../../../frontend/src/shared/upload/e2e-seal';
import {
  plainRangeOf,
  sealedPlanProblem,
  storedRangeOf,
  type PartSealer,
} from '../../../frontend/src/shared/upload/sealed-parts';
import {
  findCheckpoint,
  matchCheckpointFiles,
  saveCheckpoint,
  type CheckpointStorage,
  type UploadCheckpoint,
} from '../../../frontend/src/shared/upload/checkpoint';
import { FakeBucket, FakeUploadApi } from './s3-double';

const MiB = E2E_CHUNK_BYTES;

/** The plan the server makes of a sealed file (functions/services: parts cut on the plaintext). */
function sealedPlan(fileId: string, plainSize: number, plainPart: number | null, salt: string): PlannedFile {
  const e2e = { salt, plainSize };
  if (plainPart === null)
    return { fileId, fileName: `${fileId}.bin`, size: cipherSizeOf(plainSize), mode: 'single', e2e };
  return {
    fileId,
    fileName: `${fileId}.bin`,
    size: cipherSizeOf(plainSize),
    mode: 'multipart',
    partSize: sealedPartSize(plainPart),
    partCount: Math.max(1, Math.ceil(plainSize / plainPart)),
    e2e,
  };
}

async function openAll(sealed: Uint8Array, key: Uint8Array, salt: string, plainSize: number): Promise<Buffer> {
  const source = new Blob([sealed as BlobPart])
    .stream()
    .pipeThrough(openingStream(await fileKeyOf(key, salt), plainSize));
  const parts: Uint8Array[] = [];
  for await (const p of source as unknown as AsyncIterable<Uint8Array>) parts.push(p);
  return Buffer.concat(parts);
}

describe('where a sealed part lies', () => {
  it('cuts the plaintext so each part seals to exactly its planned stored bytes, end to end, for any size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1024 * 1024 * 1024 }),
        fc.integer({ min: 1, max: 64 }),
        (plainSize, partMiB) => {
          const plainPart = partMiB * MiB;
          const plan = sealedPlan('f', plainSize, plainPart, 'AAAAAAAAAAAAAAAAAAAAAA');
          expect(sealedPlanProblem(plan, plainSize)).toBeNull();
          let plainAt = 0;
          let storedAt = 0;
          for (let part = 1; part <= plan.partCount!; part++) {
            const plain = plainRangeOf(plan, plainSize, part);
            const stored = storedRangeOf(plan, part);
            expect(plain.start).toBe(plainAt);
            expect(stored.start).toBe(storedAt);
            // a part is whole chunks but at the end: its sealed size is its plaintext and a tag a chunk
            expect(stored.start).toBe(plain.start + 16 * (plain.start / MiB));
            const length = plain.end - plain.start;
            const chunks = Math.max(1, Math.ceil(length / MiB));
            expect(stored.end - stored.start).toBe(length + 16 * chunks);
            plainAt = plain.end;
            storedAt = stored.end;
          }
          expect(plainAt).toBe(plainSize);
          expect(storedAt).toBe(cipherSizeOf(plainSize));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('takes the server plan of any size (parts sized by partSizeFor) and refuses plans that are not sealed ones', () => {
    for (const plainSize of [0, 1, MiB, 50 * 1000 * 1000, 5 * MiB * 1000 + 17]) {
      const plan = sealedPlan('f', plainSize, partSizeFor(plainSize), 'AAAAAAAAAAAAAAAAAAAAAA');
      expect(sealedPlanProblem(plan, plainSize)).toBeNull();
    }
    const good = sealedPlan('f', 10 * MiB + 5, 5 * MiB, 'AAAAAAAAAAAAAAAAAAAAAA');
    expect(sealedPlanProblem({ ...good, size: 10 * MiB + 5 }, 10 * MiB + 5)).toMatch(/not the sealed size/);
    expect(sealedPlanProblem({ ...good, partSize: 5 * MiB }, 10 * MiB + 5)).toMatch(/no sealed part size/);
    expect(sealedPlanProblem({ ...good, partCount: 2 }, 10 * MiB + 5)).toMatch(/do not hold/);
    expect(plainRangeOf(sealedPlan('f', 77, null, 'AAAAAAAAAAAAAAAAAAAAAA'), 77, 1)).toEqual({ start: 0, end: 77 });
  });
});

describe('the engine uploading a sealed file', () => {
  let bucket: FakeBucket;
  beforeEach(async () => {
    bucket = await new FakeBucket().start();
  });
  afterEach(async () => {
    await bucket.stop();
  });

  const key = newTransferKey();

  /** A sealer that counts what it sealed, by plaintext start. */
  async function countingSealer(salt: string, plainSize: number) {
    const inner = await partSealerOf(key, salt, plainSize);
    const sealedAt: number[] = [];
    const sealer: PartSealer = {
      plainSize,
      seal: (start, plain) => {
        sealedAt.push(start);
        return inner.seal(start, plain);
      },
    };
    return { sealer, sealedAt };
  }

  const run = (api: FakeUploadApi, files: EngineFile[], resuming = false) =>
    runUpload({ api, files, fetchImpl: fetch, retryDelayMs: () => 1, resuming });

  it('PUTs the sealed parts (the object the reference seals whole), recording the CRC-32 of the sealed bytes', async () => {
    const plain = randomBytes(3 * MiB + 777);
    const { salt } = newFileParams(plain.length);
    const plan = sealedPlan('sealed0001', plain.length, MiB, salt);
    const api = new FakeUploadApi(bucket);
    const { sealer } = await countingSealer(salt, plain.length);
    await run(api, [{ plan, blob: new Blob([plain]), sealer }]);

    const object = api.assembled('sealed0001', 4);
    const whole = await sealRange(await fileKeyOf(key, salt), plain.length, 0, plain);
    expect(object.equals(Buffer.from(whole))).toBe(true);
    expect((await openAll(object, key, salt, plain.length)).equals(plain)).toBe(true);
    for (const r of api.recorded) {
      const stored = bucket.objects.get(FakeBucket.key('sealed0001', r.partNumber))!;
      expect(r.crc32).toBe(zlib.crc32(stored));
      expect(r.size).toBe(stored.length);
    }
    expect(api.completed).toEqual(['sealed0001']);
  });

  it('seals a single-PUT file whole and completes it with the CRC-32 of the sealed object', async () => {
    const plain = randomBytes(1.5 * MiB);
    const { salt } = newFileParams(plain.length);
    const api = new FakeUploadApi(bucket);
    const plan = sealedPlan('sealed0002', plain.length, null, salt);
    await run(api, [
      {
        plan: { ...plan, url: api.planUrl('sealed0002') },
        blob: new Blob([plain]),
        sealer: (await countingSealer(salt, plain.length)).sealer,
      },
    ]);
    const object = bucket.objects.get(FakeBucket.key('sealed0002', null))!;
    expect(object.length).toBe(cipherSizeOf(plain.length));
    expect((await openAll(object, key, salt, plain.length)).equals(plain)).toBe(true);
    expect(api.completeRequests).toEqual([{ fileId: 'sealed0002', req: { crc32: zlib.crc32(object) } }]);
  });

  it('reseals a retried part to the same bytes, and a resume with the kept key and salt seals the rest identically', async () => {
    const plain = randomBytes(4 * MiB + 3);
    const { salt } = newFileParams(plain.length);
    const plan = sealedPlan('sealed0003', plain.length, MiB, salt);
    const first = new FakeUploadApi(bucket);
    bucket.fail('sealed0003', 2, { kind: 'status', status: 500 }, { kind: 'drop' });
    const counted = await countingSealer(salt, plain.length);
    await run(first, [{ plan, blob: new Blob([plain]), sealer: counted.sealer }]);
    // part 2 went three times, sealed each time from the file, to the same stored bytes
    expect(bucket.putsTo('sealed0003', 2).length).toBe(3);
    expect(counted.sealedAt.filter((s) => s === MiB).length).toBeGreaterThanOrEqual(2);
    const whole = Buffer.from(await sealRange(await fileKeyOf(key, salt), plain.length, 0, plain));
    expect(first.assembled('sealed0003', 5).equals(whole)).toBe(true);

    // a later run (a reload) resumes with parts 1 and 2 recorded: a new sealer from the same key and salt
    const before = new Map([3, 4, 5].map((n) => [n, bucket.objects.get(FakeBucket.key('sealed0003', n))!]));
    for (const n of [3, 4, 5]) bucket.objects.delete(FakeBucket.key('sealed0003', n));
    const second = new FakeUploadApi(bucket);
    const resumed = await countingSealer(salt, plain.length);
    await run(second, [{ plan, blob: new Blob([plain]), sealer: resumed.sealer, partsDone: [1, 2] }], true);
    expect(resumed.sealedAt.sort((a, b) => a - b)).toEqual([2 * MiB, 3 * MiB, 4 * MiB]);
    for (const [n, bytes] of before)
      expect(bucket.objects.get(FakeBucket.key('sealed0003', n))!.equals(bytes)).toBe(true);
  });

  it('fails at once when the picked file is not the plaintext the plan was made for', async () => {
    const plain = randomBytes(1000);
    const { salt } = newFileParams(plain.length);
    const plan = sealedPlan('sealed0004', plain.length, null, salt);
    const sealer = (await countingSealer(salt, plain.length + 1)).sealer;
    await expect(run(new FakeUploadApi(bucket), [{ plan, blob: new Blob([plain]), sealer }])).rejects.toBeInstanceOf(
      UploadFailedError,
    );
  });
});

describe('the checkpoint of an encrypted upload', () => {
  class MemoryStorage implements CheckpointStorage {
    readonly data = new Map<string, string>();
    getItem(k: string) {
      return this.data.get(k) ?? null;
    }
    setItem(k: string, v: string) {
      this.data.set(k, v);
    }
    removeItem(k: string) {
      this.data.delete(k);
    }
  }
  const T0 = Date.UTC(2026, 0, 10, 12);
  const bytes = new Uint8Array(1200);
  const file = (lastModified: number) => new File([bytes], 'clip.mov', { lastModified });
  const sealed = (over: Partial<UploadCheckpoint> = {}): UploadCheckpoint => ({
    id: 'Ab3dE7x',
    uploadToken: 't'.repeat(43),
    createdAt: T0,
    files: [
      { fileId: 'fileAAAAAA', fileName: 'clip.mov', size: 1200, lastModified: 1000, e2e: { salt: 's'.repeat(22) } },
    ],
    e2eKey: 'k'.repeat(43),
    e2eMode: 'link',
    ...over,
  });

  it('offers the upload again only for a file of the same name, size and modification time', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(sealed(), storage, T0);
    const same = { fileName: 'clip.mov', size: 1200, blob: file(1000) };
    expect(findCheckpoint([same], T0 + 1000, storage)?.e2eKey).toBe('k'.repeat(43));
    expect(matchCheckpointFiles(sealed(), [same])?.get('fileAAAAAA')).toBe(same);
    // touched since: its bytes may differ, and sealing them under the same salt would reuse nonces
    expect(findCheckpoint([{ ...same, blob: file(2000) }], T0 + 1000, storage)).toBeNull();
    // bytes with no modification time (a recording) never continue an encrypted file
    expect(findCheckpoint([{ ...same, blob: new Blob([bytes]) }], T0 + 1000, storage)).toBeNull();
    expect(findCheckpoint([{ fileName: 'clip.mov', size: 1200 }], T0 + 1000, storage)).toBeNull();
  });

  it('keeps a plain checkpoint matching by name and size alone', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(
      sealed({ files: [{ fileId: 'fileAAAAAA', fileName: 'clip.mov', size: 1200 }], e2eKey: undefined }),
      storage,
      T0,
    );
    expect(findCheckpoint([{ fileName: 'clip.mov', size: 1200, blob: file(5) }], T0 + 1000, storage)).not.toBeNull();
  });

  it('drops a stored checkpoint whose encrypted files lack the key to seal them', () => {
    const storage = new MemoryStorage();
    saveCheckpoint(sealed({ e2eKey: undefined }), storage, T0);
    expect(findCheckpoint([{ fileName: 'clip.mov', size: 1200, blob: file(1000) }], T0 + 1000, storage)).toBeNull();
  });
});

describe("the sender's thumbnails", () => {
  it('are of what browsers draw (by name or type), as large as the server makes its own', async () => {
    const { SENDER_THUMBNAIL_MAX_PX, thumbnailKindOf, thumbnailSizeOf } = await import(
      '../../../frontend/src/shared/upload/e2e-thumbnails'
    );
    const { THUMBNAIL_MAX_PX } = await import('../../../functions/domain/previews');
    expect(SENDER_THUMBNAIL_MAX_PX).toBe(THUMBNAIL_MAX_PX);
    expect(thumbnailKindOf({ fileName: 'a/Photo.JPG', size: 10 })).toBe('image');
    expect(thumbnailKindOf({ fileName: 'scan.pdf', size: 10 })).toBe('pdf');
    expect(thumbnailKindOf({ fileName: 'clip.webm', size: 10 })).toBe('video');
    expect(thumbnailKindOf({ fileName: 'recording', size: 10, type: 'video/webm' })).toBe('video');
    expect(thumbnailKindOf({ fileName: 'notes.txt', size: 10, type: 'text/plain' })).toBeNull();
    expect(thumbnailKindOf({ fileName: 'song.mp3', size: 10 })).toBeNull();
    expect(thumbnailKindOf({ fileName: 'huge.png', size: 100_000_001 })).toBeNull();
    expect(thumbnailSizeOf(4000, 3000)).toEqual({ width: 400, height: 300 });
    expect(thumbnailSizeOf(300, 1200)).toEqual({ width: 100, height: 400 });
    expect(thumbnailSizeOf(120, 80)).toEqual({ width: 120, height: 80 });
  });
});
