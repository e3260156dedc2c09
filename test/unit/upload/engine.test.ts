import { randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_PARTS_PER_SIGN,
  SIGNED_URLS_PER_ANSWER,
  type PlannedFile,
  type RecordPartRequest,
  type RecordPartsRequest,
  type SignManyRequest,
  type SignManyResponse,
  type SignRequest,
  type SignResponse,
} from '../../../functions/domain/transfer-api';
import { MAX_UPLOAD_TRIES } from '../../../functions/domain/upload';
import {
  UploadCancelledError,
  UploadFailedError,
  runUpload,
  type EngineFile,
  type RunUploadOptions,
  type UploadProgress,
  type UploadWarning,
} from '../../../frontend/src/shared/upload/engine';
import { CRC_CHUNK_BYTES, crc32OfBlob, crc32OfBytes } from '../../../frontend/src/shared/upload/blob-crc32';
import { FakeBucket, FakeUploadApi } from './s3-double';

/** Hundreds of real HTTP PUTs through the fake bucket: seconds on a loaded 2-core machine. */
const SLOW_TEST_MS = 30_000;

const KiB = 1024;

let bucket: FakeBucket;
beforeEach(async () => {
  bucket = await new FakeBucket().start();
});
afterEach(async () => {
  await bucket.stop();
});

function singlePlan(fileId: string, size: number, url?: string): PlannedFile {
  return { fileId, fileName: `${fileId}.txt`, size, mode: 'single', ...(url ? { url } : {}) };
}

function multipartPlan(fileId: string, size: number, partSize: number): PlannedFile {
  return {
    fileId,
    fileName: `${fileId}.bin`,
    size,
    mode: 'multipart',
    partSize,
    partCount: Math.max(1, Math.ceil(size / partSize)),
  };
}

/** Runs the engine under Node (fetch), with retries a millisecond apart so 15 tries take no time. */
function upload(api: FakeUploadApi, files: EngineFile[], extra: Partial<RunUploadOptions> = {}) {
  const progress: UploadProgress[] = [];
  const warnings: UploadWarning[] = [];
  const done = runUpload({
    api,
    files,
    fetchImpl: fetch,
    retryDelayMs: () => 1,
    onProgress: (p) => progress.push(p),
    onWarning: (w) => warnings.push(w),
    ...extra,
  });
  return { done, progress, warnings };
}

describe('single PUT (files under 50 MB)', () => {
  it('puts the whole file to the planned URL, then completes it, without signing', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(20 * KiB);
    const plan = singlePlan('file000001', data.length, api.planUrl('file000001'));

    const { done, progress } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await done;

    expect(bucket.objects.get('file000001')?.equals(data)).toBe(true);
    expect(api.signCalls).toEqual([]);
    expect(api.recorded).toEqual([]);
    expect(api.completed).toEqual(['file000001']);
    const last = progress.at(-1)!;
    expect(last).toMatchObject({
      bytesDone: data.length,
      bytesTotal: data.length,
      filesDone: 1,
      filesTotal: 1,
      phase: 'almost-done',
    });
    expect(progress[0]).toMatchObject({ phase: 'getting-ready', bytesDone: 0, etaMs: null });
  });

  it('signs a URL first when the plan carries none', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(1000);
    const { done } = upload(api, [{ plan: singlePlan('file000002', data.length), blob: new Blob([data]) }]);
    await done;
    expect(api.signCalls).toEqual([{ fileId: 'file000002' }]);
    expect(bucket.objects.get('file000002')?.equals(data)).toBe(true);
  });

  it('uploads an empty file', async () => {
    const api = new FakeUploadApi(bucket);
    const { done } = upload(api, [
      { plan: singlePlan('file000003', 0, api.planUrl('file000003')), blob: new Blob([]) },
    ]);
    await done;
    expect(bucket.objects.get('file000003')?.length).toBe(0);
    expect(api.completed).toEqual(['file000003']);
  });

  it('keeps up to 4 small files in flight at once, never more', async () => {
    const api = new FakeUploadApi(bucket);
    bucket.holdUntilActive = 4;
    const files = Array.from({ length: 20 }, (_, i) => {
      const id = `small${String(i).padStart(5, '0')}`;
      const data = randomBytes(100 + i);
      return { plan: singlePlan(id, data.length, api.planUrl(id)), blob: new Blob([data]), data };
    });
    const { done, progress } = upload(
      api,
      files.map(({ plan, blob }) => ({ plan, blob })),
    );
    await done;

    expect(bucket.maxActive).toBe(4);
    expect(api.completed.sort()).toEqual(files.map((f) => f.plan.fileId).sort());
    for (const f of files) expect(bucket.objects.get(f.plan.fileId)?.equals(f.data)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ filesDone: 20, filesTotal: 20 });
  });
});

/** The API with the batch route: its own calls apart from the one-file signs. */
class BatchingUploadApi extends FakeUploadApi {
  readonly batches: string[][] = [];
  readonly singleSigns: SignRequest[] = [];
  override async sign(req: SignRequest): Promise<SignResponse> {
    this.singleSigns.push(req);
    return super.sign(req);
  }
  async signMany(req: SignManyRequest): Promise<SignManyResponse> {
    this.batches.push([...req.fileIds]);
    const signed = await Promise.all(req.fileIds.map((fileId) => FakeUploadApi.prototype.sign.call(this, { fileId })));
    return { files: signed.map((r) => ({ fileId: r.fileId, url: r.url! })), expiresAt: signed[0]!.expiresAt };
  }
}

describe('many small files (a create answers the first 100 URLs only)', () => {
  it(
    'signs the files without a URL 100 at a time, in file order, and uploads every one',
    async () => {
      const api = new BatchingUploadApi(bucket);
      const files = Array.from({ length: 450 }, (_, i) => {
        const id = `many${String(i).padStart(6, '0')}`;
        const data = randomBytes(1 + (i % 7));
        return {
          plan: singlePlan(id, data.length, i < SIGNED_URLS_PER_ANSWER ? api.planUrl(id) : undefined),
          blob: new Blob([data]),
          data,
        };
      });
      const { done } = upload(
        api,
        files.map(({ plan, blob }) => ({ plan, blob })),
      );
      await done;

      for (const f of files) expect(bucket.objects.get(f.plan.fileId)?.equals(f.data)).toBe(true);
      expect(api.completed).toHaveLength(450);
      expect(api.singleSigns).toEqual([]);
      // 350 files without a URL: four calls, none over 100, each file signed once
      expect(api.batches.every((b) => b.length <= SIGNED_URLS_PER_ANSWER)).toBe(true);
      expect(api.batches).toHaveLength(4);
      expect(api.batches.flat().sort()).toEqual(files.slice(SIGNED_URLS_PER_ANSWER).map((f) => f.plan.fileId));
    },
    SLOW_TEST_MS,
  );
});

describe('multipart', () => {
  it(
    'signs in batches, records every part with its ETag and size, and the parts reassemble byte-exact',
    async () => {
      const api = new FakeUploadApi(bucket);
      const partSize = 1 * KiB;
      const data = randomBytes(250 * partSize + 123); // 251 parts: three sign batches at least
      const plan = multipartPlan('file000010', data.length, partSize);

      const { done } = upload(api, [{ plan, blob: new Blob([data]) }]);
      await done;

      expect(api.assembled('file000010', 251).equals(data)).toBe(true);
      expect(api.recorded).toHaveLength(251);
      expect(api.recorded.find((r) => r.partNumber === 251)?.size).toBe(123);
      expect(api.signCalls.every((c) => c.partNumbers!.length <= MAX_PARTS_PER_SIGN)).toBe(true);
      expect(api.signCalls.length).toBeGreaterThanOrEqual(3);
      expect(api.signCalls.length).toBeLessThan(20);
      expect(bucket.puts).toHaveLength(251);
      // completes once, after the last part is recorded
      expect(api.log.filter((l) => l.startsWith('complete'))).toEqual(['complete:file000010']);
      expect(api.log.at(-1)).toBe('complete:file000010');
    },
    SLOW_TEST_MS,
  );

  it('never has more than 4 parts in flight, and reaches 4', async () => {
    const api = new FakeUploadApi(bucket);
    bucket.holdUntilActive = 4;
    const data = randomBytes(12 * KiB);
    const { done } = upload(api, [{ plan: multipartPlan('file000011', data.length, KiB), blob: new Blob([data]) }]);
    await done;
    expect(bucket.maxActive).toBe(4);
    expect(api.assembled('file000011', 12).equals(data)).toBe(true);
  });

  it('reads the next parts while the running PUTs send, one per slot, and uploads them from those bytes', async () => {
    /** A file that notes where each read of it starts. */
    class NotedBlob extends Blob {
      readonly readsAt: number[] = [];
      override slice(start?: number, end?: number, contentType?: string): Blob {
        this.readsAt.push(start ?? 0);
        return super.slice(start, end, contentType);
      }
    }
    const api = new FakeUploadApi(bucket);
    bucket.holdUntilActive = 99;
    const data = randomBytes(12 * KiB);
    const blob = new NotedBlob([data]);
    const { done } = upload(api, [{ plan: multipartPlan('file000012', data.length, KiB), blob }]);
    await until(() => bucket.active === 4, '4 PUTs in flight');
    // parts 1-4 in the slots, parts 5-8 read ahead, nothing further
    await until(() => blob.readsAt.length === 8, 'parts 5 to 8 read ahead');
    expect([...blob.readsAt].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => i * KiB));
    bucket.releaseHeld();
    await done;
    // every part read once: the read-ahead bytes were the ones sent
    expect([...blob.readsAt].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i * KiB));
    expect(api.assembled('file000012', 12).equals(data)).toBe(true);
  });

  it('drops to 3 parts in flight from the 3rd try and to 2 from the 5th', async () => {
    const api = new FakeUploadApi(bucket);
    bucket.delayMs = 10;
    const data = randomBytes(12 * KiB);
    const plan = multipartPlan('file000012', data.length, KiB);
    for (let part = 1; part <= 12; part++)
      bucket.fail(plan.fileId, part, ...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 500 })));

    const { done, progress } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await done;

    expect(api.assembled(plan.fileId, 12).equals(data)).toBe(true);
    const startedOnTry = (min: number) => bucket.puts.filter((p) => p.attempt >= min);
    expect(Math.max(...bucket.puts.map((p) => p.activeAtStart))).toBeLessThanOrEqual(4);
    expect(startedOnTry(3).length).toBeGreaterThan(0);
    expect(Math.max(...startedOnTry(3).map((p) => p.activeAtStart))).toBeLessThanOrEqual(3);
    expect(Math.max(...startedOnTry(5).map((p) => p.activeAtStart))).toBeLessThanOrEqual(2);
    expect(Math.max(...progress.map((p) => p.tryNumber))).toBe(5);
    expect(progress.at(-1)!.tryNumber).toBe(1);
  });
});

/** An API whose record calls wait until the test lets them through (or fail while told to). */
class HeldRecordsApi extends FakeUploadApi {
  private readonly waiting: (() => void)[] = [];
  private open = false;
  /** record calls started, answered or not */
  started = 0;
  /** record calls that fail (as a 503 from the API would) before the held ones */
  failNext: number[] = [];

  override async recordPart(req: RecordPartRequest): Promise<void> {
    this.started += 1;
    if (this.failNext.includes(req.partNumber)) {
      this.failNext.splice(this.failNext.indexOf(req.partNumber), 1);
      throw Object.assign(new Error('Service Unavailable'), { status: 503 });
    }
    if (!this.open) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.recordPart(req);
  }

  release(): void {
    this.open = true;
    for (const go of this.waiting.splice(0)) go();
  }
}

/** An API that records several parts in one call; its calls wait until the test lets them through. */
class BatchedRecordsApi extends FakeUploadApi {
  private readonly waiting: (() => void)[] = [];
  private open = false;
  /** the part numbers of each record call, in the order the calls were made */
  readonly calls: number[][] = [];
  /** batched calls that fail (as a 503 from the API would) before any is let through */
  failCalls = 0;

  override async recordPart(req: RecordPartRequest): Promise<void> {
    this.calls.push([req.partNumber]);
    if (!this.open) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.recordPart(req);
  }

  async recordParts(req: RecordPartsRequest): Promise<void> {
    this.calls.push(req.parts.map((p) => p.partNumber));
    if (this.failCalls > 0) {
      this.failCalls -= 1;
      throw Object.assign(new Error('Service Unavailable'), { status: 503 });
    }
    if (!this.open) await new Promise<void>((resolve) => this.waiting.push(resolve));
    for (const p of req.parts) await super.recordPart(p);
  }

  release(): void {
    this.open = true;
    for (const go of this.waiting.splice(0)) go();
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

describe('recording parts beside the uploads', () => {
  it('uploads every part while the record calls are still unanswered: a record holds no upload slot', async () => {
    const api = new HeldRecordsApi(bucket);
    const data = randomBytes(12 * KiB);
    const plan = multipartPlan('file000090', data.length, KiB);
    const { done } = upload(api, [{ plan, blob: new Blob([data]) }]);
    // With the records in the slots, 4 unanswered records would stop the 5th PUT forever.
    await until(() => bucket.puts.filter((p) => p.status === 200).length === 12, 'all 12 parts are stored');
    expect(api.recorded).toHaveLength(0);
    expect(api.completed).toEqual([]);
    api.release();
    await done;
    expect(api.assembled(plan.fileId, 12).equals(data)).toBe(true);
    expect(bucket.maxActive).toBeLessThanOrEqual(4);
  });

  it('completes a file only once every part of it is recorded', async () => {
    const api = new HeldRecordsApi(bucket);
    const data = randomBytes(6 * KiB);
    const plan = multipartPlan('file000091', data.length, KiB);
    const { done, progress } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await until(() => api.started >= 4 && bucket.puts.filter((p) => p.status === 200).length === 6, 'parts stored');
    expect(api.completed).toEqual([]);
    // the bytes are in: progress says so, though the file is not complete
    expect(progress.at(-1)?.phase).not.toBe('almost-done');
    api.release();
    await done;
    const completeAt = api.log.indexOf('complete:file000091');
    const records = api.log.flatMap((l, i) => (l.startsWith('part:file000091:') ? [i] : []));
    expect(records).toHaveLength(6);
    expect(Math.max(...records)).toBeLessThan(completeAt);
  });

  it('retries a failed record without uploading the part again', async () => {
    const api = new HeldRecordsApi(bucket);
    api.release();
    api.failNext = [3, 3];
    const data = randomBytes(5 * KiB);
    const plan = multipartPlan('file000092', data.length, KiB);
    const { done, warnings } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await done;
    expect(bucket.puts).toHaveLength(5);
    expect(api.recorded.map((r) => r.partNumber).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(api.assembled(plan.fileId, 5).equals(data)).toBe(true);
    expect(warnings).toContainEqual({ kind: 'retrying', tryNumber: 2 });
  });

  it('counts a part as done for a resume only once recorded: a cancel with records unanswered uploads those again', async () => {
    const api = new HeldRecordsApi(bucket);
    const data = randomBytes(8 * KiB);
    const plan = multipartPlan('file000093', data.length, KiB);
    const cancel = new AbortController();
    const first = upload(api, [{ plan, blob: new Blob([data]) }], { signal: cancel.signal });
    await until(() => bucket.puts.filter((p) => p.status === 200).length === 8, 'all parts are stored');
    cancel.abort();
    await expect(first.done).rejects.toBeInstanceOf(UploadCancelledError);
    // The server knows what was recorded, nothing else: that is what a resume starts from.
    const recorded = api.recorded.map((r) => r.partNumber);
    expect(recorded).toEqual([]);

    const resumedApi = new FakeUploadApi(bucket);
    const second = upload(resumedApi, [{ plan, blob: new Blob([data]), partsDone: recorded }], { resuming: true });
    await second.done;
    expect(resumedApi.recorded.map((r) => r.partNumber).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(resumedApi.assembled(plan.fileId, 8).equals(data)).toBe(true);
  });

  it('sends the parts that finished while its record calls ran in one call, at most two calls at once', async () => {
    const api = new BatchedRecordsApi(bucket);
    const data = randomBytes(12 * KiB);
    const plan = multipartPlan('file000094', data.length, KiB);
    let answered = 0;
    const countingFetch: typeof fetch = async (...args) => {
      const res = await fetch(...args);
      answered += 1;
      return res;
    };
    const { done } = upload(api, [{ plan, blob: new Blob([data]) }], { fetchImpl: countingFetch });
    await until(() => api.calls.length >= 2 && answered === 12, 'two record calls and all 12 PUTs answered');
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    // two calls are held; every other stored part waits for the next call
    expect(api.calls).toHaveLength(2);
    api.release();
    await done;
    expect(api.calls.length).toBeLessThanOrEqual(4);
    expect(api.calls.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(Math.max(...api.calls.map((c) => c.length))).toBeGreaterThan(1);
    expect(api.assembled(plan.fileId, 12).equals(data)).toBe(true);
  });

  it('retries every part of a failed batched record without uploading them again', async () => {
    const api = new BatchedRecordsApi(bucket);
    api.failCalls = 1;
    const data = randomBytes(10 * KiB);
    const plan = multipartPlan('file000095', data.length, KiB);
    const { done, warnings } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await until(() => bucket.puts.filter((p) => p.status === 200).length === 10, 'all 10 parts are stored');
    api.release();
    await done;
    expect(bucket.puts).toHaveLength(10);
    expect(api.recorded.map((r) => r.partNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(api.assembled(plan.fileId, 10).equals(data)).toBe(true);
    expect(warnings).toContainEqual({ kind: 'retrying', tryNumber: 2 });
  });
});

describe('retries', () => {
  it('warns at tries 2, 5 and 10 and succeeds on the 11th', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(500);
    const plan = singlePlan('file000020', data.length, api.planUrl('file000020'));
    bucket.fail(
      plan.fileId,
      null,
      ...Array.from({ length: 10 }, () => ({ kind: 'status' as const, status: 503, code: 'SlowDown' })),
    );

    const { done, warnings, progress } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await done;

    expect(warnings).toEqual([
      { kind: 'retrying', tryNumber: 2 },
      { kind: 'retrying', tryNumber: 5 },
      { kind: 'retrying', tryNumber: 10 },
    ]);
    expect(bucket.putsTo(plan.fileId)).toHaveLength(11);
    expect(bucket.objects.get(plan.fileId)?.equals(data)).toBe(true);
    expect(progress.some((p) => p.tryNumber === 11)).toBe(true);
  });

  it('waits the backoff before each retry', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(10);
    const plan = singlePlan('file000021', data.length, api.planUrl('file000021'));
    bucket.fail(plan.fileId, null, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const delays: number[] = [];
    // Each backoff timer notes how many PUTs the bucket had seen when it fired: the retry must
    // come after it, so no clock is read and a slow machine changes nothing.
    const BACKOFF_MS = 37;
    const firedAfterPuts: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      fn: (...a: unknown[]) => void,
      ms?: number,
      ...args: unknown[]
    ) =>
      realSetTimeout(() => {
        if (ms === BACKOFF_MS) firedAfterPuts.push(bucket.puts.length);
        fn(...args);
      }, ms)) as typeof setTimeout);
    try {
      const { done } = upload(api, [{ plan, blob: new Blob([data]) }], {
        retryDelayMs: (n) => {
          delays.push(n);
          return BACKOFF_MS;
        },
      });
      await done;
    } finally {
      spy.mockRestore();
    }
    expect(delays).toEqual([2, 3]);
    expect(firedAfterPuts).toEqual([1, 2]);
    expect(bucket.putsTo(plan.fileId)).toHaveLength(3);
  });

  it('fetches a fresh URL after a 403 for an expired single-PUT URL and retries at once', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(300);
    // The plan's URL already expired: the bucket answers 403 AccessDenied 'Request has expired'.
    const plan = singlePlan('file000022', data.length, api.planUrl('file000022', -1000));
    const { done, warnings } = upload(api, [{ plan, blob: new Blob([data]) }], { retryDelayMs: () => 60_000 });
    await done;

    expect(bucket.putsTo(plan.fileId).map((p) => p.status)).toEqual([403, 200]);
    expect(api.signCalls).toEqual([{ fileId: plan.fileId }]);
    expect(bucket.putsTo(plan.fileId)[1]!.url).toContain('sig=1');
    expect(warnings).toEqual([{ kind: 'retrying', tryNumber: 2 }]);
  });

  it('re-signs the parts of a multipart file after a 403 instead of reusing the spent URLs', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(6 * KiB);
    const plan = multipartPlan('file000023', data.length, KiB);
    bucket.fail(plan.fileId, 3, { kind: 'expired' });

    const { done } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await done;

    const part3 = bucket.putsTo(plan.fileId, 3);
    expect(part3.map((p) => p.status)).toEqual([403, 200]);
    expect(part3[1]!.url).not.toBe(part3[0]!.url);
    expect(api.signCalls.length).toBeGreaterThanOrEqual(2);
    expect(api.signCalls.at(-1)!.partNumbers).toContain(3);
    expect(api.assembled(plan.fileId, 6).equals(data)).toBe(true);
  });

  it('re-signs URLs that are about to expire before using them', async () => {
    // URLs live 30 s, under the engine's 1-minute margin: each batch is re-signed rather than risked.
    const api = new FakeUploadApi(bucket, { ttlMs: 30_000 });
    const data = randomBytes(3 * KiB);
    const plan = multipartPlan('file000024', data.length, KiB);
    const { done } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await done;
    expect(bucket.puts.every((p) => p.status === 200)).toBe(true);
    expect(api.assembled(plan.fileId, 3).equals(data)).toBe(true);
  });

  it('retries a part whose connection dropped mid-body and warns about the network', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(256 * KiB);
    const plan = multipartPlan('file000025', data.length, 128 * KiB);
    bucket.fail(plan.fileId, 2, { kind: 'drop' });

    const { done, warnings } = upload(api, [{ plan, blob: new Blob([data]) }]);
    await done;

    expect(bucket.putsTo(plan.fileId, 2)[0]!.aborted).toBe(true);
    expect(api.assembled(plan.fileId, 2).equals(data)).toBe(true);
    expect(warnings.some((w) => w.kind === 'network' && w.message.length > 0)).toBe(true);
    expect(warnings).toContainEqual({ kind: 'retrying', tryNumber: 2 });
  });

  it('fails with name, message, index, part and request id after 15 tries', async () => {
    const api = new FakeUploadApi(bucket);
    const first = randomBytes(100);
    const second = randomBytes(5 * KiB);
    const plans = [
      singlePlan('file000030', first.length, api.planUrl('file000030')),
      multipartPlan('file000031', second.length, KiB),
    ];
    bucket.failAlways('file000031', 3, {
      kind: 'status',
      status: 500,
      code: 'InternalError',
      message: 'We encountered an internal error',
    });

    const { done } = upload(api, [
      { plan: plans[0]!, blob: new Blob([first]) },
      { plan: plans[1]!, blob: new Blob([second]) },
    ]);
    const err = await done.then(
      () => null,
      (e: unknown) => e,
    );

    expect(err).toBeInstanceOf(UploadFailedError);
    const failed = err as UploadFailedError;
    const part3 = bucket.putsTo('file000031', 3);
    expect(part3).toHaveLength(MAX_UPLOAD_TRIES);
    expect(failed).toMatchObject({
      name: 'UploadFailedError',
      fileName: 'file000031.bin',
      index: 1,
      part: 3,
      tries: MAX_UPLOAD_TRIES,
      message: 'InternalError: We encountered an internal error',
    });
    expect(failed.requestId).toMatch(/^req-\d+$/);
    expect(api.completed).not.toContain('file000031');
  });

  it('fails at once when the API refuses to sign (a 4xx will not change on retry)', async () => {
    const refused = Object.assign(new Error('This upload was cancelled'), { status: 409 });
    const api = new FakeUploadApi(bucket, { signErrors: [refused] });
    const data = randomBytes(10);
    const { done } = upload(api, [{ plan: singlePlan('file000032', data.length), blob: new Blob([data]) }]);
    await expect(done).rejects.toMatchObject({
      name: 'UploadFailedError',
      message: 'This upload was cancelled',
      tries: 1,
      part: 1,
      index: 0,
    });
    expect(bucket.puts).toHaveLength(0);
  });

  it('retries a sign call that failed on the network, warning with its message', async () => {
    const api = new FakeUploadApi(bucket, { signErrors: [Object.assign(new Error('Failed to fetch'), { status: 0 })] });
    const data = randomBytes(10);
    const { done, warnings } = upload(api, [{ plan: singlePlan('file000033', data.length), blob: new Blob([data]) }]);
    await done;
    expect(api.signCalls).toHaveLength(2);
    expect(warnings).toContainEqual({
      kind: 'network',
      message: 'Network Error - Could not get key (Failed to fetch)',
    });
  });

  it('retries completing a file the API could not complete', async () => {
    const api = new FakeUploadApi(bucket, {
      completeErrors: [Object.assign(new Error('Service unavailable'), { status: 503 })],
    });
    const data = randomBytes(10);
    const { done } = upload(api, [
      { plan: singlePlan('file000034', data.length, api.planUrl('file000034')), blob: new Blob([data]) },
    ]);
    await done;
    expect(api.log.filter((l) => l.startsWith('complete'))).toHaveLength(2);
    expect(api.completed).toEqual(['file000034']);
  });

  it('uploads every part of a file again when the server reset it, then completes', async () => {
    const reset = () =>
      Object.assign(new Error('The uploaded file has 5 bytes, 30 were announced.'), {
        status: 409,
        code: 'size_mismatch',
        details: { fileId: 'file000036', reset: true },
      });
    const api = new FakeUploadApi(bucket, { completeErrors: [reset()] });
    const data = randomBytes(30 * KiB);
    const { done, progress } = upload(api, [
      { plan: multipartPlan('file000036', data.length, 10 * KiB), blob: new Blob([data]) },
    ]);
    await done;
    expect(api.log.filter((l) => l === 'part:file000036:1')).toHaveLength(2);
    expect(api.recorded.filter((r) => r.fileId === 'file000036')).toHaveLength(6);
    expect(api.completed).toEqual(['file000036']);
    expect(api.assembled('file000036', 3).equals(data)).toBe(true);
    // Progress drops back when the file starts over, and ends at all bytes.
    expect(progress.at(-1)).toMatchObject({ bytesDone: data.length, filesDone: 1 });
    expect(progress.some((p, i) => i > 0 && p.bytesDone < progress[i - 1]!.bytesDone)).toBe(true);
  });

  it('gives up on a file the server resets more than twice', async () => {
    const reset = () =>
      Object.assign(new Error('reset'), { status: 409, code: 'upload_reset', details: { reset: true } });
    const api = new FakeUploadApi(bucket, { completeErrors: [reset(), reset(), reset()] });
    const data = randomBytes(10);
    const { done } = upload(api, [
      { plan: singlePlan('file000037', data.length, api.planUrl('file000037')), blob: new Blob([data]) },
    ]);
    await expect(done).rejects.toMatchObject({ name: 'UploadFailedError', fileName: 'file000037.txt' });
    expect(api.log.filter((l) => l.startsWith('complete'))).toHaveLength(3);
  });

  it('warns that the file is locked when it can no longer be read, and gives up after 15 tries', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'upload-locked-'));
    try {
      const file = path.join(dir, 'report.pdf');
      writeFileSync(file, randomBytes(2000));
      const blob = await openAsBlob(file);
      // Changing the file after picking makes every read of the Blob fail (NotReadableError).
      await new Promise((r) => setTimeout(r, 20));
      writeFileSync(file, randomBytes(2000));
      const api = new FakeUploadApi(bucket);
      const plan = { ...singlePlan('file000035', 2000, api.planUrl('file000035')), fileName: 'report.pdf' };

      const { done, warnings } = upload(api, [{ plan, blob }]);
      await expect(done).rejects.toMatchObject({
        name: 'UploadFailedError',
        fileName: 'report.pdf',
        tries: MAX_UPLOAD_TRIES,
      });
      expect(warnings).toContainEqual({ kind: 'file-locked', fileName: 'report.pdf' });
      expect(warnings.filter((w) => w.kind === 'file-locked')).toHaveLength(1);
      expect(bucket.objects.has('file000035')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('cancel', () => {
  it('aborts every request in flight at once and rejects with UploadCancelledError', async () => {
    const api = new FakeUploadApi(bucket);
    bucket.delayMs = 10_000; // the bucket holds every answer; only the abort can end the requests
    const data = randomBytes(40 * KiB);
    const controller = new AbortController();
    const { done } = upload(api, [{ plan: multipartPlan('file000040', data.length, KiB), blob: new Blob([data]) }], {
      signal: controller.signal,
    });

    await expect.poll(() => bucket.active).toBe(4);
    controller.abort();
    await expect(done).rejects.toBeInstanceOf(UploadCancelledError);
    // At once: rejected while the bucket still holds every answer, none given yet.
    expect(bucket.puts.map((p) => p.status)).toEqual([undefined, undefined, undefined, undefined]);
    await expect.poll(() => bucket.active).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(bucket.puts).toHaveLength(4);
    expect(bucket.puts.every((p) => p.aborted)).toBe(true);
    expect(api.recorded).toEqual([]);
    expect(api.completed).toEqual([]);
  });

  it('stops waiting out a backoff when cancelled', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(10);
    const plan = singlePlan('file000041', data.length, api.planUrl('file000041'));
    bucket.failAlways(plan.fileId, null, { kind: 'status', status: 500 });
    const controller = new AbortController();
    const { done } = upload(api, [{ plan, blob: new Blob([data]) }], {
      signal: controller.signal,
      retryDelayMs: () => 60_000,
    });

    await expect.poll(() => bucket.puts.length).toBe(1);
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'UploadCancelledError', message: 'You aborted the upload.' });
    expect(bucket.puts).toHaveLength(1);
  });

  it('rejects without a request when the signal is already aborted', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(10);
    const { done } = upload(
      api,
      [{ plan: singlePlan('file000042', 10, api.planUrl('file000042')), blob: new Blob([data]) }],
      {
        signal: AbortSignal.abort(),
      },
    );
    await expect(done).rejects.toBeInstanceOf(UploadCancelledError);
    expect(bucket.puts).toHaveLength(0);
  });
});

describe('resume', () => {
  it('skips recorded parts and uploaded files, counting them as done, in the resuming phase', async () => {
    const api = new FakeUploadApi(bucket);
    const partSize = KiB;
    const big = randomBytes(8 * partSize);
    const done1 = randomBytes(300);
    const bigPlan = multipartPlan('file000050', big.length, partSize);
    const doneParts = [1, 2, 5];

    const { done, progress } = upload(
      api,
      [
        { plan: singlePlan('file000051', done1.length), blob: new Blob([done1]), uploaded: true },
        { plan: bigPlan, blob: new Blob([big]), partsDone: doneParts },
      ],
      { resuming: true },
    );
    await done;

    expect(bucket.puts.map((p) => p.part).sort((a, b) => a! - b!)).toEqual([3, 4, 6, 7, 8]);
    expect(api.recorded.map((r) => r.partNumber).sort()).toEqual([3, 4, 6, 7, 8]);
    expect(api.completed).toEqual(['file000050']);
    expect(progress[0]).toMatchObject({
      phase: 'resuming',
      bytesDone: done1.length + 3 * partSize,
      filesDone: 1,
      filesTotal: 2,
    });
    expect(progress.at(-1)).toMatchObject({ bytesDone: done1.length + big.length, filesDone: 2 });
    for (let n = 3; n <= 8; n++)
      if (!doneParts.includes(n)) {
        expect(bucket.objects.get(`file000050#${n}`)?.equals(big.subarray((n - 1) * partSize, n * partSize))).toBe(
          true,
        );
      }
  });

  it('only completes a multipart file whose parts were all recorded before', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(2 * KiB);
    const { done } = upload(
      api,
      [{ plan: multipartPlan('file000052', data.length, KiB), blob: new Blob([data]), partsDone: [1, 2] }],
      { resuming: true },
    );
    await done;
    expect(bucket.puts).toHaveLength(0);
    expect(api.completed).toEqual(['file000052']);
  });
});

describe('CRC-32 of what is uploaded', () => {
  /** A picked file that remembers every slice the engine takes of it. */
  class SlicedBlob extends Blob {
    readonly slices: [number, number][] = [];
    override slice(start = 0, end = this.size, type?: string): Blob {
      this.slices.push([start, end]);
      return super.slice(start, end, type);
    }
  }

  it("sends a single file's CRC-32 with its complete call, 0 for an empty file", async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(20 * KiB + 7);
    const { done } = upload(api, [
      { plan: singlePlan('crcsingle1', data.length, api.planUrl('crcsingle1')), blob: new Blob([data]) },
      { plan: singlePlan('crcempty01', 0, api.planUrl('crcempty01')), blob: new Blob([]) },
    ]);
    await done;
    expect(api.completeRequests).toHaveLength(2);
    expect(api.completeRequests).toEqual(
      expect.arrayContaining([
        { fileId: 'crcsingle1', req: { crc32: zlib.crc32(data) } },
        { fileId: 'crcempty01', req: { crc32: 0 } },
      ]),
    );
  });

  it('records every part with the CRC-32 of its own bytes; the complete call of a multipart file carries none', async () => {
    const api = new FakeUploadApi(bucket);
    const partSize = 4 * KiB;
    const data = randomBytes(6 * partSize + 321);
    const { done } = upload(api, [
      { plan: multipartPlan('crcmulti01', data.length, partSize), blob: new Blob([data]) },
    ]);
    await done;
    expect(api.recorded).toHaveLength(7);
    for (const r of api.recorded) {
      const start = (r.partNumber - 1) * partSize;
      expect(r.crc32).toBe(zlib.crc32(data.subarray(start, Math.min(data.length, start + partSize))));
    }
    expect(api.completeRequests).toEqual([{ fileId: 'crcmulti01', req: undefined }]);
  });

  it('computes a unit’s CRC-32 once and keeps it across the unit’s retries', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(3 * KiB);
    const blob = new SlicedBlob([data]);
    bucket.fail('crcretry01', null, { kind: 'status', status: 500 }, { kind: 'status', status: 503 });
    const { done } = upload(api, [{ plan: singlePlan('crcretry01', data.length, api.planUrl('crcretry01')), blob }]);
    await done;
    expect(bucket.puts.filter((p) => p.fileId === 'crcretry01')).toHaveLength(3);
    // one read per PUT; the CRC comes from the first read's bytes
    expect(blob.slices).toHaveLength(3);
    expect(api.completeRequests).toEqual([{ fileId: 'crcretry01', req: { crc32: zlib.crc32(data) } }]);
  });

  it('reads a blob in chunks of at most 8 MiB', async () => {
    expect(CRC_CHUNK_BYTES).toBe(8 * 1024 * KiB);
    const data = randomBytes(100 * KiB + 5);
    const blob = new SlicedBlob([data]);
    expect(await crc32OfBlob(blob, undefined, 7 * KiB)).toBe(zlib.crc32(data));
    expect(blob.slices).toHaveLength(Math.ceil(data.length / (7 * KiB)));
    expect(blob.slices.every(([start, end]) => end - start <= 7 * KiB)).toBe(true);
    const big = new SlicedBlob([randomBytes(17 * 1024 * KiB)]);
    await crc32OfBlob(big);
    expect(big.slices.map(([start, end]) => end - start)).toEqual([8 * 1024 * KiB, 8 * 1024 * KiB, 1024 * KiB]);
    expect(await crc32OfBlob(new Blob([]))).toBe(0);
  });

  it('computes the CRC-32 of bytes already read in chunks, as of the blob', async () => {
    const data = randomBytes(50 * KiB + 3);
    expect(await crc32OfBytes(data, undefined, 7 * KiB)).toBe(zlib.crc32(data));
    expect(await crc32OfBytes(new Uint8Array(0))).toBe(0);
    const abort = new AbortController();
    abort.abort(new Error('cancelled'));
    await expect(crc32OfBytes(data, abort.signal)).rejects.toThrow('cancelled');
  });

  it('reads a part once for both its PUT and its CRC-32', async () => {
    const api = new FakeUploadApi(bucket);
    const data = randomBytes(4 * KiB + 100);
    const blob = new SlicedBlob([data]);
    const { done } = upload(api, [{ plan: multipartPlan('crcread01', data.length, KiB), blob }]);
    await done;
    expect(blob.slices.map(([a, b]) => `${a}-${b}`).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `${i * KiB}-${Math.min(data.length, (i + 1) * KiB)}`).sort(),
    );
    expect(api.assembled('crcread01', 5).equals(data)).toBe(true);
  });

  it('stops reading once cancelled', async () => {
    const abort = new AbortController();
    abort.abort(new Error('cancelled'));
    await expect(crc32OfBlob(new Blob([randomBytes(10)]), abort.signal)).rejects.toThrow('cancelled');
  });
});

describe('progress', () => {
  it('goes getting-ready, warming-up, then almost-done, with bytes never going back', async () => {
    const api = new FakeUploadApi(bucket);
    bucket.delayMs = 5;
    const data = randomBytes(16 * KiB);
    const { done, progress } = upload(api, [
      { plan: multipartPlan('file000060', data.length, KiB), blob: new Blob([data]) },
    ]);
    await done;

    const phases = progress.map((p) => p.phase).filter((ph, i, all) => ph !== all[i - 1]);
    expect(phases[0]).toBe('getting-ready');
    expect(phases).toContain('warming-up');
    expect(phases.at(-1)).toBe('almost-done');
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.bytesDone).toBeGreaterThanOrEqual(progress[i - 1]!.bytesDone);
    expect(progress.every((p) => p.bytesTotal === data.length && p.filesTotal === 1)).toBe(true);
  });

  it('counts a file once its bytes are in, while the server still completes it, and says almost-done only then', async () => {
    // The storage's multipart completion takes a while (seconds for a large file): it must not hold the count back.
    const release: Array<() => void> = [];
    class SlowCompleteApi extends FakeUploadApi {
      override async completeFile(fileId: string) {
        await new Promise<void>((resolve) => release.push(resolve));
        return super.completeFile(fileId);
      }
    }
    const api = new SlowCompleteApi(bucket);
    const a = randomBytes(4 * KiB);
    const b = randomBytes(4 * KiB);
    const { done, progress } = upload(api, [
      { plan: multipartPlan('file000061', a.length, KiB), blob: new Blob([a]) },
      { plan: singlePlan('file000062', b.length, api.planUrl('file000062')), blob: new Blob([b]) },
    ]);
    await expect.poll(() => release.length, { timeout: 5000 }).toBe(2);
    const whileCompleting = progress.at(-1)!;
    expect(api.completed).toEqual([]);
    expect(whileCompleting).toMatchObject({
      bytesDone: a.length + b.length,
      filesDone: 2,
      filesTotal: 2,
      phase: 'almost-done',
    });
    // Before the last bytes were in, the phase was never almost-done, and the count rose one file at a time.
    const counts = progress.map((p) => p.filesDone).filter((n, i, all) => n !== all[i - 1]);
    expect(counts).toEqual([0, 1, 2]);
    expect(progress.filter((p) => p.bytesDone < p.bytesTotal).every((p) => p.phase !== 'almost-done')).toBe(true);
    for (const r of release) r();
    await done;
    expect(api.completed.sort()).toEqual(['file000061', 'file000062']);
  });

  it('asks again while the server answers completing (202), honouring its Retry-After, and stays almost-done', async () => {
    const asked: string[] = [];
    const waits: Array<[number, number | undefined]> = [];
    class BackgroundCompleteApi extends FakeUploadApi {
      override async completeFile(fileId: string) {
        asked.push(fileId);
        if (asked.length < 3) return { state: 'completing' as const, retryAfterSeconds: 7 };
        await super.completeFile(fileId);
        return { state: 'complete' as const };
      }
    }
    const api = new BackgroundCompleteApi(bucket);
    const data = randomBytes(4 * KiB);
    const { done, progress, warnings } = upload(
      api,
      [{ plan: multipartPlan('file000063', data.length, KiB), blob: new Blob([data]) }],
      {
        completionPollDelayMs: (poll, retryAfter) => {
          waits.push([poll, retryAfter]);
          return 1;
        },
      },
    );
    await done;
    expect(asked).toEqual(['file000063', 'file000063', 'file000063']);
    expect(waits).toEqual([
      [1, 7],
      [2, 7],
    ]);
    expect(api.completed).toEqual(['file000063']);
    // polling is not retrying: no warning, the try stays 1, and the view says almost-done throughout
    expect(warnings).toEqual([]);
    expect(progress.every((p) => p.tryNumber === 1)).toBe(true);
    expect(progress.at(-1)!.phase).toBe('almost-done');
  });

  it('rejects a blob whose size is not the planned size before sending anything', async () => {
    const api = new FakeUploadApi(bucket);
    const { done } = upload(api, [
      { plan: singlePlan('file000061', 99, api.planUrl('file000061')), blob: new Blob([randomBytes(100)]) },
    ]);
    await expect(done).rejects.toBeInstanceOf(UploadFailedError);
    expect(bucket.puts).toHaveLength(0);
  });
});
