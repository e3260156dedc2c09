import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SourceSizeError, buildZipToS3, effectivePartSize } from '../../../functions/adapters/zip/s3-zip';
import { planZip } from '../../../functions/adapters/zip/zip-stream';
import { createS3Client } from '../../../functions/lib/clients/s3';
import { readZip } from '../../helpers/read-zip';
import { s3Error, s3Target, stubHttp, xmlResponse, type SentRequest, type StreamAnswer } from '../../helpers/http-stub';

/**
 * The ZIP job's S3 side (functions/adapters/zip/s3-zip.ts) through the functions' S3Client,
 * against a fake S3 at the SDK's HTTP boundary: requests are read as S3 reads them (method, query,
 * Range and If-Match headers, part bodies) and answered with S3's status codes, XML and
 * streamed bodies that can break mid-way. The real s3rver round trip is test/integration/zip-build.
 */
const MiB = 1024 * 1024;
const client = createS3Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

interface FakeObject {
  data: Buffer;
  etag: string;
  /** break each body after this many bytes (from where it starts), this many times */
  breakAfter?: number;
  breaks?: number;
  /** send no Content-Length instead of the real one */
  contentLength?: number | null;
}

interface GetCall {
  Key: string;
  Range: string | undefined;
  IfMatch: string | undefined;
}

let objects: Map<string, FakeObject>;
let getCalls: GetCall[];
let uploaded: Map<number, Buffer>;
let inFlight: number;
let maxInFlight: number;
/** bytes handed out by all GetObject bodies so far */
let served: number;
let uploadDelay: () => Promise<void>;
let s3calls: SentRequest[];
let restore: () => void;
/** part numbers answered with 503 SlowDown */
let slowDownParts: Set<number>;

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

/** What S3 answers, per operation (the query and method name it). */
async function fakeS3(req: SentRequest): Promise<Response | StreamAnswer> {
  const { key } = s3Target(req.url);
  const q = req.url.searchParams;
  if (req.method === 'POST' && q.has('uploads'))
    return xmlResponse('<InitiateMultipartUploadResult><UploadId>up-1</UploadId></InitiateMultipartUploadResult>');
  if (req.method === 'GET') {
    const range = req.headers.get('range') ?? undefined;
    const ifMatch = req.headers.get('if-match') ?? undefined;
    getCalls.push({ Key: key, Range: range, IfMatch: ifMatch });
    const o = objects.get(key);
    if (!o) return s3Error(404, 'NoSuchKey');
    const from = range ? Number(/bytes=(\d+)-/u.exec(range)![1]) : 0;
    if (ifMatch && ifMatch !== o.etag) return s3Error(412, 'PreconditionFailed');
    const length = o.contentLength === null ? undefined : (o.contentLength ?? o.data.length - from);
    const headers: Record<string, string> = { etag: o.etag };
    if (length !== undefined) headers['content-length'] = String(length);
    return { status: range ? 206 : 200, headers, stream: body(o, from) };
  }
  if (req.method === 'PUT' && q.has('partNumber')) {
    const partNumber = Number(q.get('partNumber'));
    if (slowDownParts.has(partNumber)) return s3Error(503, 'SlowDown', 'Please reduce your request rate.');
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await uploadDelay();
    } finally {
      inFlight--;
    }
    req.signal?.throwIfAborted();
    uploaded.set(partNumber, req.body);
    return new Response(null, { status: 200, headers: { etag: `"etag-${partNumber}"` } });
  }
  if (req.method === 'POST' && q.has('uploadId'))
    return xmlResponse('<CompleteMultipartUploadResult><ETag>&quot;final&quot;</ETag></CompleteMultipartUploadResult>');
  // s3rver answers 405 to AbortMultipartUpload; the job ignores Abort errors.
  if (req.method === 'DELETE' && q.has('uploadId')) return s3Error(405, 'MethodNotAllowed');
  return s3Error(400, 'UnexpectedRequest');
}

beforeEach(() => {
  objects = new Map();
  getCalls = [];
  uploaded = new Map();
  inFlight = 0;
  maxInFlight = 0;
  served = 0;
  slowDownParts = new Set();
  uploadDelay = () => new Promise((r) => setTimeout(r, 2));
  ({ calls: s3calls, restore } = stubHttp(fakeS3));
});

afterEach(() => {
  restore();
});

const callsOf = (op: 'create' | 'part' | 'complete' | 'abort') =>
  s3calls.filter((c) => {
    const q = c.url.searchParams;
    if (op === 'create') return c.method === 'POST' && q.has('uploads');
    if (op === 'part') return c.method === 'PUT' && q.has('partNumber');
    if (op === 'complete') return c.method === 'POST' && q.has('uploadId');
    return c.method === 'DELETE' && q.has('uploadId');
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

describe('buildZipToS3 (S3 at the HTTP boundary)', () => {
  it('uploads the archive in exact 5 MiB parts and completes with every part in order', async () => {
    const entries = [put('a', randomBytes(7 * MiB)), put('b', Buffer.alloc(0)), put('c', randomBytes(4 * MiB + 3))];
    const result = await buildZipToS3({
      ...target,
      entries,
      partSize: 5 * MiB,
      contentDisposition: 'attachment; filename="t1.zip"',
    });

    const plan = planZip(entries);
    expect(result).toEqual({ size: plan.size, parts: 3, etag: '"final"' });
    // Parts are uploaded concurrently: compared by part number, never by arrival.
    expect([...uploaded].sort(([a], [b]) => a - b).map(([, b]) => b.length)).toEqual([
      5 * MiB,
      5 * MiB,
      plan.size - 10 * MiB,
    ]);
    const [create] = callsOf('create');
    expect(create!.url.host).toBe('dst.s3.us-east-1.amazonaws.com');
    expect(create!.url.pathname).toBe('/zips/t1.zip');
    expect(create!.headers.get('content-type')).toBe('application/zip');
    expect(create!.headers.get('content-disposition')).toBe('attachment; filename="t1.zip"');
    expect(create!.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=x\/\d{8}\/us-east-1\/s3\/aws4_request, /u,
    );
    const partCalls = callsOf('part').map((c) => [
      c.url.searchParams.get('partNumber'),
      c.url.searchParams.get('uploadId'),
    ]);
    expect(partCalls.sort(([a], [b]) => Number(a) - Number(b))).toEqual([
      ['1', 'up-1'],
      ['2', 'up-1'],
      ['3', 'up-1'],
    ]);
    const [complete] = callsOf('complete');
    expect(complete!.url.searchParams.get('uploadId')).toBe('up-1');
    const sentParts = [...complete!.body.toString().matchAll(/<Part>([\s\S]*?)<\/Part>/gu)].map((m) => [
      /<PartNumber>(\d+)</u.exec(m[1]!)![1],
      /<ETag>([^<]*)</u.exec(m[1]!)![1],
    ]);
    expect(sentParts).toEqual([1, 2, 3].map((n) => [String(n), `&quot;etag-${n}&quot;`]));
    expect(getCalls.map((c) => c.Key)).toEqual(['a', 'b', 'c']);

    const zip = assembled();
    const read = await readZip(zip);
    expect(read.map((e) => e.name)).toEqual(['a.bin', 'b.bin', 'c.bin']);
    expect(read.map((e) => sha(e.data))).toEqual(entries.map((e) => sha(objects.get(e.key)!.data)));
    expect(callsOf('abort')).toHaveLength(0);
  });

  it('keeps at most `concurrency` parts in flight and reads ahead no more than the part buffers hold', async () => {
    const entries = [put('big', randomBytes(40 * MiB))];
    let maxReadAhead = 0;
    uploadDelay = async () => {
      // While parts are "uploading", see how far the source got beyond what was uploaded.
      const done = [...uploaded.values()].reduce((n, b) => n + b.length, 0);
      maxReadAhead = Math.max(maxReadAhead, served - done);
      // A part waits for a second one in flight (or for the source to be read to its end), so
      // both slots get used however slow the machine is at filling the next part.
      while (inFlight < 2 && served < 40 * MiB) await new Promise((r) => setTimeout(r, 1));
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
    // Abort is not retried: 405 is a client error.
    expect(callsOf('abort').map((c) => [c.url.host, c.url.pathname, c.url.searchParams.get('uploadId')])).toEqual([
      ['dst.s3.us-east-1.amazonaws.com', '/zips/t1.zip', 'up-1'],
    ]);
    expect(callsOf('complete')).toHaveLength(0);
  });

  it('counts the bytes when the response has no length: a short body fails', async () => {
    const entries = [{ ...put('short', randomBytes(1000), { contentLength: null }), size: 2000 }];
    await expect(buildZipToS3({ ...target, entries })).rejects.toThrow(
      'source object short has 1000 bytes, expected 2000',
    );
    expect(callsOf('complete')).toHaveLength(0);
  });

  it('resumes a body that breaks mid-stream with a ranged GET from the last byte received, pinned to the same ETag', async () => {
    const data = randomBytes(3 * MiB);
    const entries = [put('flaky', data, { breakAfter: MiB + 123, breaks: 2 })];
    await buildZipToS3({ ...target, entries });
    // A broken fetch body drops what it had queued but not yet handed over, so each resume
    // starts at or before the break: wherever it starts, the archive must hold the exact bytes.
    expect(getCalls).toHaveLength(3);
    expect(getCalls[0]).toEqual({ Key: 'flaky', Range: undefined, IfMatch: undefined });
    const starts = getCalls.slice(1).map((c) => Number(/^bytes=(\d+)-$/u.exec(c.Range!)![1]));
    expect(starts[0]).toBeGreaterThan(0);
    expect(starts[0]).toBeLessThanOrEqual(MiB + 123);
    expect(starts[1]).toBeGreaterThan(starts[0]!);
    expect(starts[1]).toBeLessThanOrEqual(starts[0]! + MiB + 123);
    expect(getCalls.slice(1).map((c) => c.IfMatch)).toEqual(['"flaky-etag"', '"flaky-etag"']);
    expect(sha((await readZip(assembled()))[0]!.data)).toBe(sha(data));
  });

  it('gives up after three resumes', async () => {
    const entries = [put('dead', randomBytes(MiB), { breakAfter: 1000, breaks: 10 })];
    await expect(buildZipToS3({ ...target, entries })).rejects.toThrow('socket hang up');
    expect(getCalls).toHaveLength(4);
    expect(callsOf('abort')).toHaveLength(1);
  });

  it('retries a throttled part twice, then aborts and rethrows S3 error, and stops reading the source', async () => {
    const entries = [put('a', randomBytes(60 * MiB))];
    slowDownParts.add(2);
    // The other parts finish only once part 2 has failed for good (its third attempt), however
    // slow the machine: the builder may not read on past the parts already in flight.
    uploadDelay = async () => {
      while (callsOf('part').filter((c) => c.url.searchParams.get('partNumber') === '2').length < 3)
        await new Promise((r) => setTimeout(r, 5));
    };
    await expect(buildZipToS3({ ...target, entries, partSize: 5 * MiB })).rejects.toMatchObject({
      name: 'SlowDown',
      $metadata: { httpStatusCode: 503, attempts: 3 },
    });
    const part2 = callsOf('part').filter((c) => c.url.searchParams.get('partNumber') === '2');
    expect(part2).toHaveLength(3);
    // every attempt sends the whole part again
    for (const c of part2) expect(c.body.length).toBe(5 * MiB);
    expect(callsOf('abort')).toHaveLength(1);
    expect(callsOf('complete')).toHaveLength(0);
    // parts 1 and 2 in flight, one more part read while they were, and the stream's own buffer
    expect(served).toBeLessThanOrEqual(3 * 5 * MiB + 64 * 1024);
  }, 30_000); // 60 MiB of source and retried 5 MiB parts

  it('stops when the signal aborts', async () => {
    const ac = new AbortController();
    const entries = [put('a', randomBytes(20 * MiB))];
    uploadDelay = async () => {
      ac.abort();
    };
    await expect(buildZipToS3({ ...target, entries, partSize: 5 * MiB, signal: ac.signal })).rejects.toThrow();
    expect(callsOf('complete')).toHaveLength(0);
    expect(callsOf('abort')).toHaveLength(1);
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
