/**
 * Server-side copies of forwarded transfers (functions/adapters/storage.ts copyObject): up to
 * 5 GiB one CopyObject; above, a multipart upload of UploadPartCopy ranges. s3rver implements
 * CopyObject (the integration tests copy for real) but not UploadPartCopy, so the multipart
 * path is checked here against a mocked S3 client.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  S3Client,
  UploadPartCopyCommand,
  type UploadPartCopyCommandInput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNIT_ENV } from '../../helpers/events';

const GiB = 1024 ** 3;
const s3mock = mockClient(S3Client);
const saved = { ...process.env };
let storage: typeof import('../../../functions/adapters/storage');

const from = { regionId: 'hongkong' as const, anon: false, key: 't/Src0001/fileAAAAAA' };
const to = { regionId: 'hongkong' as const, anon: false, key: 't/Dst0001/fileBBBBBB' };

beforeAll(async () => {
  vi.resetModules();
  process.env = { ...saved, ...UNIT_ENV };
  storage = await import('../../../functions/adapters/storage');
});

afterAll(() => {
  process.env = saved;
});

beforeEach(() => {
  s3mock.reset();
  s3mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
  s3mock.on(UploadPartCopyCommand).callsFake((input: UploadPartCopyCommandInput) => ({ CopyPartResult: { ETag: `"etag-${input.PartNumber}"` } }));
  s3mock.on(CompleteMultipartUploadCommand).resolves({});
  s3mock.on(CopyObjectCommand).resolves({ CopyObjectResult: { ETag: '"whole"' } });
});

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
    const calls = s3mock.commandCalls(CopyObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ Bucket: 'hk-transfers', Key: to.key, CopySource: `hk-transfers/${from.key}` });
    expect(s3mock.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('copies above 5 GiB part by part with UploadPartCopy ranges, then completes with every ETag in order', async () => {
    const size = 12 * GiB + 5;
    await storage.copyObject(from, to, size);
    expect(s3mock.commandCalls(CopyObjectCommand)).toHaveLength(0);
    const parts = s3mock.commandCalls(UploadPartCopyCommand).map((c) => c.args[0].input);
    expect(parts).toHaveLength(13);
    const byNumber = [...parts].sort((a, b) => a.PartNumber! - b.PartNumber!);
    expect(byNumber[0]).toMatchObject({ Bucket: 'hk-transfers', Key: to.key, UploadId: 'up-1', CopySource: `hk-transfers/${from.key}`, CopySourceRange: `bytes=0-${GiB - 1}` });
    expect(byNumber.at(-1)!.CopySourceRange).toBe(`bytes=${12 * GiB}-${size - 1}`);
    const complete = s3mock.commandCalls(CompleteMultipartUploadCommand);
    expect(complete).toHaveLength(1);
    expect(complete[0]!.args[0].input.MultipartUpload!.Parts).toEqual(byNumber.map((p) => ({ PartNumber: p.PartNumber, ETag: `"etag-${p.PartNumber}"` })));
    expect(s3mock.commandCalls(AbortMultipartUploadCommand)).toHaveLength(0);
  });

  it('aborts the multipart upload when a part fails (the source went away) and throws S3 error', async () => {
    const missing = Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
    s3mock.on(UploadPartCopyCommand, { PartNumber: 3 }).rejects(missing);
    s3mock.on(AbortMultipartUploadCommand).resolves({});
    const err = await storage.copyObject(from, to, 6 * GiB).catch((e: unknown) => e);
    expect(storage.isMissingObject(err)).toBe(true);
    expect(s3mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(s3mock.commandCalls(AbortMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([{ Bucket: 'hk-transfers', Key: to.key, UploadId: 'up-1' }]);
  });

  it('encodes the copy source key', async () => {
    await storage.copyObject({ ...from, key: 't/Src0001/a b+c' }, to, 10);
    expect(s3mock.commandCalls(CopyObjectCommand)[0]!.args[0].input.CopySource).toBe('hk-transfers/t/Src0001/a%20b%2Bc');
  });
});
