import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
  type GetObjectCommandInput,
  type GetObjectCommandOutput,
  type UploadPartCommandInput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SourceSizeError, buildZipToS3, effectivePartSize } from '../../../functions/adapters/zip/s3-zip';
import { planZip } from '../../../functions/adapters/zip/zip-stream';
import { readZip } from '../../helpers/read-zip';

const MiB = 1024 * 1024;
const s3mock = mockClient(S3Client);
const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

interface FakeObject {
  data: Buffer;
  etag: string;
  /** break each body after this many bytes (from where it starts), this many times */
  breakAfter?: number;
  breaks?: number;
  /** claim this length in ContentLength instead of the real one */
  contentLength?: number | null;
}

let objects: Map<string, FakeObject>;
let getCalls: GetObjectCommandInput[];
let uploaded: Map<number, Buffer>;
let inFlight: number;
let maxInFlight: number;
/** bytes handed out by all GetObject bodies so far */
let served: number;
let uploadDelay: () => Promise<void>;

function body(o: FakeObject, from: number): Readable {
  const stop = o.breaks && o.breakAfter !== undefined ? from + o.breakAfter : o.data.length;
  const shouldBreak = stop < o.data.length;
  if (shouldBreak) o.breaks!--;
  const CHUNK = 64 * 1024;
  return Readable.from(
    (function* () {
      for (let at = from; at < (shouldBreak ? stop : o.data.length); at += CHUNK) {
        const end = Math.min(at + CHUNK, shouldBreak ? stop : o.data.length);
        served += end - at;
        yield o.data.subarray(at, end);
      }
      if (shouldBreak) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    })(),
    { objectMode: false, highWaterMark: 64 * 1024 },
  );
}

beforeEach(() => {
  s3mock.reset();
  objects = new Map();
  getCalls = [];
  uploaded = new Map();
  inFlight = 0;
  maxInFlight = 0;
  served = 0;
  uploadDelay = () => new Promise((r) => setTimeout(r, 2));
  s3mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
  s3mock.on(GetObjectCommand).callsFake(async (input: GetObjectCommandInput) => {
    getCalls.push(input);
    const o = objects.get(input.Key!);
    if (!o) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' });
    const from = input.Range ? Number(/bytes=(\d+)-/.exec(input.Range)![1]) : 0;
    if (input.IfMatch && input.IfMatch !== o.etag) throw Object.assign(new Error('PreconditionFailed'), { name: 'PreconditionFailed' });
    const length = o.contentLength === null ? undefined : (o.contentLength ?? o.data.length - from);
    return { Body: body(o, from), ETag: o.etag, ContentLength: length } as unknown as GetObjectCommandOutput;
  });
  s3mock.on(UploadPartCommand).callsFake(async (input: UploadPartCommandInput) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await uploadDelay();
    // Copied when the "upload" finishes, so a buffer reused while in flight would show up as corruption.
    uploaded.set(input.PartNumber!, Buffer.from(input.Body as Uint8Array));
    inFlight--;
    return { ETag: `"etag-${input.PartNumber}"` };
  });
  s3mock.on(CompleteMultipartUploadCommand).resolves({ ETag: '"final"' });
  s3mock.on(AbortMultipartUploadCommand).rejects(Object.assign(new Error('Method Not Allowed'), { $metadata: { httpStatusCode: 405 } }));
});

afterEach(() => {
  s3mock.reset();
});

function put(key: string, data: Buffer, extra: Partial<FakeObject> = {}): { key: string; name: string; size: number } {
  objects.set(key, { data, etag: `"${key}-etag"`, ...extra });
  return { key, name: `${key}.bin`, size: data.length };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function assembled(): Buffer {
  const numbers = [...uploaded.keys()].sort((a, b) => a - b);
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  return Buffer.concat(numbers.map((n) => uploaded.get(n)!));
}

const target = { s3: client, sourceBucket: 'src', targetBucket: 'dst', targetKey: 'zips/t1.zip' };

describe('buildZipToS3 (S3 mocked)', () => {
  it('uploads the archive in exact 5 MiB parts and completes with every part in order', async () => {
    const entries = [put('a', randomBytes(7 * MiB)), put('b', Buffer.alloc(0)), put('c', randomBytes(4 * MiB + 3))];
    const result = await buildZipToS3({ ...target, entries, partSize: 5 * MiB, contentDisposition: 'attachment; filename="t1.zip"' });

    const plan = planZip(entries);
    expect(result).toEqual({ size: plan.size, parts: 3, etag: '"final"' });
    expect([...uploaded.values()].map((b) => b.length)).toEqual([5 * MiB, 5 * MiB, plan.size - 10 * MiB]);
    const create = s3mock.commandCalls(CreateMultipartUploadCommand)[0]!.args[0].input;
    expect(create).toMatchObject({ Bucket: 'dst', Key: 'zips/t1.zip', ContentType: 'application/zip', ContentDisposition: 'attachment; filename="t1.zip"' });
    const complete = s3mock.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input;
    expect(complete.MultipartUpload!.Parts).toEqual([1, 2, 3].map((n) => ({ PartNumber: n, ETag: `"etag-${n}"` })));
    expect(getCalls.map((c) => c.Key)).toEqual(['a', 'b', 'c']);

    const zip = assembled();
    const read = await readZip(zip);
    expect(read.map((e) => e.name)).toEqual(['a.bin', 'b.bin', 'c.bin']);
    expect(read.map((e) => sha(e.data))).toEqual(entries.map((e) => sha(objects.get(e.key)!.data)));
    expect(s3mock.commandCalls(AbortMultipartUploadCommand)).toHaveLength(0);
  });

  it('keeps at most `concurrency` parts in flight and reads ahead no more than the part buffers hold', async () => {
    const entries = [put('big', randomBytes(40 * MiB))];
    let maxReadAhead = 0;
    uploadDelay = async () => {
      // While parts are "uploading", see how far the source got beyond what was uploaded.
      const done = [...uploaded.values()].reduce((n, b) => n + b.length, 0);
      maxReadAhead = Math.max(maxReadAhead, served - done);
      await new Promise((r) => setTimeout(r, 15));
    };
    const result = await buildZipToS3({ ...target, entries, partSize: 5 * MiB, concurrency: 2 });
    expect(result.parts).toBe(9);
    expect(maxInFlight).toBe(2);
    // 2 parts in flight + 1 filling, plus what the stream buffers (one 64 KiB highWaterMark, a chunk in hand).
    expect(maxReadAhead).toBeLessThanOrEqual(3 * 5 * MiB + 256 * 1024);
    expect(sha((await readZip(assembled()))[0]!.data)).toBe(sha(objects.get('big')!.data));
  });

  it('fails clearly when an object is not the declared size, aborting the upload (and ignoring a 405 on abort)', async () => {
    const entries = [put('ok', randomBytes(1000)), { ...put('bad', randomBytes(1000)), size: 999 }];
    const err = await buildZipToS3({ ...target, entries }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceSizeError);
    expect((err as Error).message).toBe('source object bad has 1000 bytes, expected 999');
    expect(s3mock.commandCalls(AbortMultipartUploadCommand)).toHaveLength(1);
    expect(s3mock.commandCalls(AbortMultipartUploadCommand)[0]!.args[0].input).toEqual({ Bucket: 'dst', Key: 'zips/t1.zip', UploadId: 'up-1' });
    expect(s3mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });

  it('counts the bytes when the response has no length: a short body fails', async () => {
    const entries = [{ ...put('short', randomBytes(1000), { contentLength: null }), size: 2000 }];
    await expect(buildZipToS3({ ...target, entries })).rejects.toThrow('source object short has 1000 bytes, expected 2000');
    expect(s3mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });

  it('resumes a body that breaks mid-stream with a ranged GET pinned to the same ETag', async () => {
    const data = randomBytes(3 * MiB);
    const entries = [put('flaky', data, { breakAfter: MiB + 123, breaks: 2 })];
    await buildZipToS3({ ...target, entries });
    expect(getCalls.map((c) => [c.Range, c.IfMatch])).toEqual([
      [undefined, undefined],
      [`bytes=${MiB + 123}-`, '"flaky-etag"'],
      [`bytes=${MiB + 123 + MiB + 123}-`, '"flaky-etag"'],
    ]);
    expect(sha((await readZip(assembled()))[0]!.data)).toBe(sha(data));
  });

  it('gives up after three resumes', async () => {
    const entries = [put('dead', randomBytes(MiB), { breakAfter: 1000, breaks: 10 })];
    await expect(buildZipToS3({ ...target, entries })).rejects.toThrow('socket hang up');
    expect(getCalls).toHaveLength(4);
    expect(s3mock.commandCalls(AbortMultipartUploadCommand)).toHaveLength(1);
  });

  it('aborts and rethrows when a part upload fails, and stops reading the source', async () => {
    const entries = [put('a', randomBytes(30 * MiB))];
    s3mock.on(UploadPartCommand, { PartNumber: 2 }).rejects(Object.assign(new Error('SlowDown'), { name: 'SlowDown' }));
    await expect(buildZipToS3({ ...target, entries, partSize: 5 * MiB })).rejects.toThrow('SlowDown');
    expect(s3mock.commandCalls(AbortMultipartUploadCommand)).toHaveLength(1);
    expect(s3mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(served).toBeLessThan(30 * MiB);
  });

  it('stops when the signal aborts', async () => {
    const ac = new AbortController();
    const entries = [put('a', randomBytes(20 * MiB))];
    uploadDelay = async () => {
      ac.abort();
    };
    await expect(buildZipToS3({ ...target, entries, partSize: 5 * MiB, signal: ac.signal })).rejects.toThrow();
    expect(s3mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(s3mock.commandCalls(AbortMultipartUploadCommand)).toHaveLength(1);
  });

  it('writes a valid empty archive for no entries (one short part)', async () => {
    const result = await buildZipToS3({ ...target, entries: [] });
    expect(result).toMatchObject({ size: 22, parts: 1 });
    expect(await readZip(assembled())).toEqual([]);
  });
});

describe('effectivePartSize', () => {
  it('refuses parts below the S3 minimum of 5 MiB', () => {
    expect(() => effectivePartSize(5 * MiB - 1)).toThrow(RangeError);
    expect(effectivePartSize(5 * MiB, 100)).toBe(5 * MiB);
  });

  it('grows the part size in whole MiB so an archive fits in 10,000 parts', () => {
    const size = 200 * 1024 ** 3; // 200 GiB at 16 MiB parts would need 12,800
    const part = effectivePartSize(16 * MiB, size);
    expect(part % MiB).toBe(0);
    expect(Math.ceil(size / part)).toBeLessThanOrEqual(10_000);
    expect(part).toBe(21 * MiB);
  });
});
