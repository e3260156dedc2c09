import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { serviceError, useUnitEnv } from '../../helpers/aws-mock';
import {
  COPY_PART_BYTES,
  abortMultipart,
  checkBuckets,
  completeMultipart,
  copyObject,
  crc32Header,
  deletePrefix,
  isMissingObject,
  objectHead,
  objectSize,
  presignDownload,
  presignPart,
  presignPut,
  presignTypedPut,
  readObjectHead,
  startMultipart,
} from '../../../functions/adapters/storage';
import { GiB } from '../../../functions/domain/units';

useUnitEnv();

const s3Mock = mockClient(S3Client);

beforeEach(() => {
  s3Mock.reset();
});

const ref = { regionId: 'hongkong' as const, anon: false, key: 'transfers/Abc1234/f1' };
const anonRef = { ...ref, anon: true };

/** An S3 error as the SDK throws it: its name and the HTTP status in $metadata. */
const s3Error = (name: string, status: number) =>
  Object.assign(serviceError(name, name, status), { $metadata: { httpStatusCode: status } });

describe('missing objects', () => {
  it('HEAD of a missing object (NotFound, 404) is undefined; any other failure is thrown', async () => {
    s3Mock
      .on(HeadObjectCommand)
      .rejectsOnce(s3Error('NotFound', 404))
      .rejectsOnce(s3Error('UnknownError', 404))
      .rejectsOnce(s3Error('AccessDenied', 403));
    expect(await objectSize(ref)).toBeUndefined();
    expect(await objectHead(ref)).toBeUndefined();
    await expect(objectSize(ref)).rejects.toMatchObject({ name: 'AccessDenied' });
    expect(s3Mock.commandCalls(HeadObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'hk-transfers', Key: ref.key });
  });

  it("HEAD answers the size and type; a guest transfer's object is in the anon bucket", async () => {
    s3Mock.on(HeadObjectCommand).resolves({ ContentLength: 42, ContentType: 'image/png' });
    expect(await objectHead(anonRef)).toEqual({ size: 42, contentType: 'image/png' });
    expect(s3Mock.commandCalls(HeadObjectCommand)[0]!.args[0].input.Bucket).toBe('hk-anon');
  });

  it('knows NoSuchKey by name or code and a 404, not a 403', () => {
    expect(isMissingObject(s3Error('NoSuchKey', 404))).toBe(true);
    expect(isMissingObject({ Code: 'NoSuchKey' })).toBe(true);
    expect(isMissingObject(s3Error('AccessDenied', 403))).toBe(false);
  });

  it('a ranged read of a missing or empty object is undefined; of a present one its first bytes', async () => {
    // In Node the SDK's Body is a Readable (the adapter reads it as one).
    const body = Readable.from([Buffer.from('%PDF-1.7'), Buffer.from(' and more')]) as never;
    s3Mock
      .on(GetObjectCommand)
      .rejectsOnce(s3Error('NoSuchKey', 404))
      .rejectsOnce(s3Error('InvalidRange', 416))
      .resolvesOnce({ Body: body });
    expect(await readObjectHead(ref, 8)).toBeUndefined();
    expect(await readObjectHead(ref, 8)).toBeUndefined();
    expect(Buffer.from((await readObjectHead(ref, 8))!).toString()).toBe('%PDF-1.7');
    expect(s3Mock.commandCalls(GetObjectCommand)[0]!.args[0].input.Range).toBe('bytes=0-7');
  });
});

describe('multipart uploads', () => {
  it("completing sends the parts in S3's shape", async () => {
    s3Mock.on(CompleteMultipartUploadCommand).resolves({});
    await completeMultipart(ref, 'up-1', [
      { partNumber: 1, etag: '"a"' },
      { partNumber: 2, etag: '"b"' },
    ]);
    expect(s3Mock.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input).toEqual({
      Bucket: 'hk-transfers',
      Key: ref.key,
      UploadId: 'up-1',
      MultipartUpload: {
        Parts: [
          { PartNumber: 1, ETag: '"a"' },
          { PartNumber: 2, ETag: '"b"' },
        ],
      },
    });
  });

  it("starts every upload with S3's full-object CRC-32, and completes with the file's CRC-32 for S3 to check", async () => {
    s3Mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-2' });
    s3Mock.on(CompleteMultipartUploadCommand).resolves({});
    expect(await startMultipart(ref)).toBe('up-2');
    expect(s3Mock.commandCalls(CreateMultipartUploadCommand)[0]!.args[0].input).toMatchObject({
      ChecksumAlgorithm: 'CRC32',
      ChecksumType: 'FULL_OBJECT',
    });
    await completeMultipart(ref, 'up-2', [{ partNumber: 1, etag: '"a"' }], 0xcbf43926);
    // CRC-32 of "123456789" is 0xCBF43926: S3 wants its 4 bytes big-endian, base64
    expect(s3Mock.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input).toMatchObject({
      ChecksumCRC32: 'y/Q5Jg==',
      ChecksumType: 'FULL_OBJECT',
    });
    expect(crc32Header(0)).toBe('AAAAAA==');
  });

  it('aborting an upload that is already gone (NoSuchUpload) is no error', async () => {
    s3Mock.on(AbortMultipartUploadCommand).rejects(s3Error('NoSuchUpload', 404));
    await expect(abortMultipart(ref, 'up-1')).resolves.toBeUndefined();
    expect(s3Mock.commandCalls(AbortMultipartUploadCommand)[0]!.args[0].input).toEqual({
      Bucket: 'hk-transfers',
      Key: ref.key,
      UploadId: 'up-1',
    });
  });
});

describe('deletePrefix', () => {
  it('lists and deletes page by page, following the continuation token, and counts the objects', async () => {
    s3Mock
      .on(ListObjectsV2Command)
      .resolvesOnce({ Contents: [{ Key: 'p/a' }, { Key: 'p/b' }], IsTruncated: true, NextContinuationToken: 't1' })
      .resolvesOnce({ Contents: [], IsTruncated: true, NextContinuationToken: 't2' })
      .resolvesOnce({ Contents: [{ Key: 'p/c' }], IsTruncated: false });
    s3Mock.on(DeleteObjectsCommand).resolves({});
    expect(await deletePrefix(ref, 'p/')).toBe(3);
    expect(s3Mock.commandCalls(ListObjectsV2Command).map((c) => c.args[0].input.ContinuationToken)).toEqual([
      undefined,
      't1',
      't2',
    ]);
    const deletes = s3Mock.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input);
    expect(deletes).toHaveLength(2);
    expect(deletes[0]).toEqual({
      Bucket: 'hk-transfers',
      Delete: { Objects: [{ Key: 'p/a' }, { Key: 'p/b' }], Quiet: true },
    });
  });
});

describe('copyObject', () => {
  const to = { ...ref, key: 'transfers/Xyz9876/f1' };

  it("copies up to 5 GiB in one CopyObject with an encoded source, leaving the source's tags behind", async () => {
    s3Mock.on(CopyObjectCommand).resolves({});
    await copyObject({ ...ref, key: 'transfers/Abc1234/a b#c.txt' }, to, 10);
    expect(s3Mock.commandCalls(CopyObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: 'hk-transfers',
      Key: to.key,
      CopySource: 'hk-transfers/transfers/Abc1234/a%20b%23c.txt',
      MetadataDirective: 'COPY',
      TaggingDirective: 'REPLACE',
    });
  });

  it("a missing source is S3's NoSuchKey to the caller", async () => {
    s3Mock.on(CopyObjectCommand).rejects(s3Error('NoSuchKey', 404));
    await expect(copyObject(ref, to, 10)).rejects.toSatisfy(isMissingObject);
  });

  it('copies larger objects part by part and aborts the upload when a part fails', async () => {
    s3Mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'cp-1' });
    s3Mock.on(UploadPartCopyCommand).resolves({ CopyPartResult: { ETag: '"e"' } });
    s3Mock.on(UploadPartCopyCommand, { PartNumber: 4 }).rejects(s3Error('InternalError', 500));
    s3Mock.on(AbortMultipartUploadCommand).resolves({});
    await expect(copyObject(ref, to, 6 * GiB)).rejects.toMatchObject({ name: 'InternalError' });
    const ranges = s3Mock.commandCalls(UploadPartCopyCommand).map((c) => c.args[0].input);
    expect(ranges).toHaveLength(6);
    expect(ranges[0]).toMatchObject({
      UploadId: 'cp-1',
      PartNumber: 1,
      CopySourceRange: `bytes=0-${COPY_PART_BYTES - 1}`,
    });
    expect(s3Mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(s3Mock.commandCalls(AbortMultipartUploadCommand)[0]!.args[0].input).toMatchObject({
      Key: to.key,
      UploadId: 'cp-1',
    });
  });

  it('completes a multipart copy with every part in order', async () => {
    s3Mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'cp-1' });
    s3Mock
      .on(UploadPartCopyCommand)
      .callsFake((input: { PartNumber: number }) => ({ CopyPartResult: { ETag: `"e${input.PartNumber}"` } }));
    s3Mock.on(CompleteMultipartUploadCommand).resolves({});
    await copyObject(ref, to, 5 * GiB + 1);
    expect(s3Mock.commandCalls(CopyObjectCommand)).toHaveLength(0);
    expect(s3Mock.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input.MultipartUpload).toEqual({
      Parts: [1, 2, 3, 4, 5, 6].map((n) => ({ PartNumber: n, ETag: `"e${n}"` })),
    });
    expect(s3Mock.commandCalls(UploadPartCopyCommand).at(-1)!.args[0].input.CopySourceRange).toBe(
      `bytes=${5 * GiB}-${5 * GiB}`,
    );
  });

  it('refuses a copy between AWS regions before any request', async () => {
    await expect(copyObject(ref, { ...to, regionId: 'frankfurt' }, 10)).rejects.toThrow('one AWS region');
    expect(s3Mock.calls()).toHaveLength(0);
  });
});

describe('checkBuckets', () => {
  it('heads both buckets of every region and names the failure of one', async () => {
    s3Mock.on(HeadBucketCommand).resolves({});
    s3Mock.on(HeadBucketCommand, { Bucket: 'fra-anon' }).rejects(s3Error('NoSuchBucket', 404));
    expect(await checkBuckets()).toEqual({ hongkong: { ok: true }, frankfurt: { ok: false, error: 'NoSuchBucket' } });
    expect(
      s3Mock
        .commandCalls(HeadBucketCommand)
        .map((c) => c.args[0].input.Bucket)
        .sort(),
    ).toEqual(['fra-anon', 'fra-transfers', 'hk-anon', 'hk-transfers']);
  });
});

describe('presigned URLs', () => {
  const parse = (url: string) => new URL(url);

  it('an upload PUT pins its length (signed header) and expires when asked', async () => {
    const url = parse(await presignPut(ref, 1234, 900));
    expect(url.hostname).toBe('hk-transfers.s3.ap-east-1.amazonaws.com');
    expect(url.pathname).toBe(`/${ref.key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'host']),
    );
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/\/ap-east-1\/s3\/aws4_request$/u);
    // presigning sends nothing
    expect(s3Mock.calls()).toHaveLength(0);
  });

  it('a part PUT carries the upload id and part number in the signed query', async () => {
    const url = parse(await presignPart(ref, 'up-1', 3, 5, 60));
    expect(url.searchParams.get('uploadId')).toBe('up-1');
    expect(url.searchParams.get('partNumber')).toBe('3');
  });

  it('a typed PUT signs the content type too', async () => {
    const url = parse(await presignTypedPut(ref, 'image/png', 10, 60));
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type']),
    );
  });

  it("a download is an attachment under the file's own name", async () => {
    const url = parse(await presignDownload(ref, 'Résumé "final".pdf', 300));
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="R_sum_ _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(url.searchParams.get('response-content-type')).toBe('application/octet-stream');
  });

  it('refuses an expiry past 7 days', async () => {
    await expect(presignPut(ref, 1, 7 * 24 * 3600 + 1)).rejects.toThrow(RangeError);
  });
});
