/**
 * Server-side copies of forwarded transfers (functions/adapters/storage.ts copyObject): up to
 * 5 GiB one CopyObject; above, a multipart upload of UploadPartCopy ranges. s3rver implements
 * CopyObject (the integration tests copy for real) but not UploadPartCopy, so the multipart
 * path is checked here against S3 answered at the fetch boundary: the requests as S3 gets them.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNIT_ENV } from '../../helpers/events';
import { s3Error, s3Target, stubHttp, xmlResponse, type SentRequest } from '../../helpers/http-stub';

const GiB = 1024 ** 3;
const saved = { ...process.env };
let storage: typeof import('../../../functions/adapters/storage');

const from = { regionId: 'hongkong' as const, anon: false, key: 't/Src0001/fileAAAAAA' };
const to = { regionId: 'hongkong' as const, anon: false, key: 't/Dst0001/fileBBBBBB' };

let calls: SentRequest[];
let restore: () => void;
/** part numbers whose copy answers 404 NoSuchKey (the source went away) */
let missingParts: Set<number>;

beforeAll(async () => {
  vi.resetModules();
  process.env = { ...saved, ...UNIT_ENV };
  storage = await import('../../../functions/adapters/storage');
});

afterAll(() => {
  process.env = saved;
});

beforeEach(() => {
  missingParts = new Set();
  ({ calls, restore } = stubHttp((req) => {
    const q = req.url.searchParams;
    if (req.method === 'POST' && q.has('uploads'))
      return xmlResponse('<InitiateMultipartUploadResult><UploadId>up-1</UploadId></InitiateMultipartUploadResult>');
    if (req.method === 'PUT' && q.has('partNumber') && req.headers.has('x-amz-copy-source')) {
      const n = Number(q.get('partNumber'));
      if (missingParts.has(n)) return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
      return xmlResponse(
        `<CopyPartResult><LastModified>2026-11-25T00:00:00.000Z</LastModified><ETag>&quot;etag-${n}&quot;</ETag></CopyPartResult>`,
      );
    }
    if (req.method === 'PUT' && req.headers.has('x-amz-copy-source'))
      return xmlResponse('<CopyObjectResult><ETag>&quot;whole&quot;</ETag></CopyObjectResult>');
    if (req.method === 'POST' && q.has('uploadId'))
      return xmlResponse(
        '<CompleteMultipartUploadResult><ETag>&quot;done&quot;</ETag></CompleteMultipartUploadResult>',
      );
    if (req.method === 'DELETE' && q.has('uploadId')) return new Response(null, { status: 204 });
    return s3Error(400, 'UnexpectedRequest');
  }));
});

afterEach(() => restore());

const partCopies = () => calls.filter((c) => c.method === 'PUT' && c.url.searchParams.has('partNumber'));
const whole = () => calls.filter((c) => c.method === 'PUT' && !c.url.searchParams.has('partNumber'));
const creates = () => calls.filter((c) => c.method === 'POST' && c.url.searchParams.has('uploads'));
const completes = () => calls.filter((c) => c.method === 'POST' && c.url.searchParams.has('uploadId'));
const aborts = () => calls.filter((c) => c.method === 'DELETE');

describe('copyPartRanges', () => {
  it('covers the object in 1 GiB parts with inclusive ends', () => {
    const size = 5 * GiB + 123;
    const ranges = storage.copyPartRanges(size);
    expect(ranges).toHaveLength(6);
    expect(ranges[0]).toEqual({ partNumber: 1, start: 0, end: GiB - 1 });
    expect(ranges.at(-1)).toEqual({ partNumber: 6, start: 5 * GiB, end: size - 1 });
    for (let i = 1; i < ranges.length; i += 1) expect(ranges[i]!.start).toBe(ranges[i - 1]!.end + 1);
  });

  it('uses larger parts when 10,000 of 1 GiB would not do, never above 5 GiB', () => {
    const size = 20_000 * GiB;
    const ranges = storage.copyPartRanges(size);
    expect(ranges.length).toBeLessThanOrEqual(10_000);
    expect(ranges.reduce((s, r) => s + (r.end - r.start + 1), 0)).toBe(size);
    for (const r of ranges) expect(r.end - r.start + 1).toBeLessThanOrEqual(5 * GiB);
    expect(() => storage.copyPartRanges(60_000 * GiB)).toThrow(RangeError);
    expect(() => storage.copyPartRanges(0)).toThrow(RangeError);
  });
});

describe('copyObject', () => {
  it('copies up to 5 GiB with one CopyObject from the same bucket', async () => {
    await storage.copyObject(from, to, 5 * GiB);
    expect(whole()).toHaveLength(1);
    const [copy] = whole();
    expect(s3Target(copy!.url)).toEqual({ bucket: 'hk-transfers', key: to.key });
    expect(copy!.headers.get('x-amz-copy-source')).toBe(`hk-transfers/${from.key}`);
    expect(copy!.headers.get('x-amz-metadata-directive')).toBe('COPY');
    // the copy source is signed with the request
    expect(copy!.headers.get('authorization')).toContain('x-amz-copy-source');
    expect(creates()).toHaveLength(0);
  });

  it('copies above 5 GiB part by part with UploadPartCopy ranges, then completes with every ETag in order', async () => {
    const size = 12 * GiB + 5;
    await storage.copyObject(from, to, size);
    expect(whole()).toHaveLength(0);
    expect(creates().map((c) => c.headers.get('content-type'))).toEqual(['application/octet-stream']);
    const parts = partCopies().map((c) => ({
      target: s3Target(c.url),
      partNumber: Number(c.url.searchParams.get('partNumber')),
      uploadId: c.url.searchParams.get('uploadId'),
      source: c.headers.get('x-amz-copy-source'),
      range: c.headers.get('x-amz-copy-source-range'),
    }));
    expect(parts).toHaveLength(13);
    const byNumber = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    expect(byNumber[0]).toEqual({
      target: { bucket: 'hk-transfers', key: to.key },
      partNumber: 1,
      uploadId: 'up-1',
      source: `hk-transfers/${from.key}`,
      range: `bytes=0-${GiB - 1}`,
    });
    expect(byNumber.at(-1)!.range).toBe(`bytes=${12 * GiB}-${size - 1}`);
    expect(completes()).toHaveLength(1);
    const completed = completes()[0]!.body.toString();
    expect(completed).toContain('<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">');
    const sent = [...completed.matchAll(/<Part>([\s\S]*?)<\/Part>/gu)].map((m) => [
      Number(/<PartNumber>(\d+)</u.exec(m[1]!)![1]),
      /<ETag>([^<]*)</u.exec(m[1]!)![1],
    ]);
    expect(sent).toEqual(byNumber.map((p) => [p.partNumber, `&quot;etag-${p.partNumber}&quot;`]));
    expect(aborts()).toHaveLength(0);
  });

  it('aborts the multipart upload when a part fails (the source went away) and throws S3 error', async () => {
    missingParts.add(3);
    // 6 GiB: parts 1-6 of 1 GiB, all in flight together; part 3's 404 is not retried
    const err = await storage.copyObject(from, to, 6 * GiB).catch((e: unknown) => e);
    expect(err).toMatchObject({
      name: 'NoSuchKey',
      message: 'The specified key does not exist.',
      $metadata: { httpStatusCode: 404 },
    });
    expect(storage.isMissingObject(err)).toBe(true);
    expect(partCopies().filter((c) => c.url.searchParams.get('partNumber') === '3')).toHaveLength(1);
    expect(completes()).toHaveLength(0);
    expect(aborts().map((c) => [c.url.host, s3Target(c.url).key, c.url.searchParams.get('uploadId')])).toEqual([
      ['hk-transfers.s3.ap-east-1.amazonaws.com', to.key, 'up-1'],
    ]);
  });

  it('encodes the copy source key', async () => {
    await storage.copyObject({ ...from, key: 't/Src0001/a b+c' }, to, 10);
    expect(whole()[0]!.headers.get('x-amz-copy-source')).toBe('hk-transfers/t/Src0001/a%20b%2Bc');
  });
});
