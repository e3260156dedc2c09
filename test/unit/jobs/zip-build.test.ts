/**
 * The ZIP build job (functions/jobs/zip-build.ts) with the table's and S3's clients mocked: the
 * parts it uploads are put together and read back as an archive (yauzl).
 */
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ddbMock, serviceError, TABLE, throttled, useUnitEnv } from '../../helpers/aws-mock';
import { readZip } from '../../helpers/read-zip';
import { keys } from '../../../functions/data/keys';
import { zipContentHash, zipKey } from '../../../functions/services/downloads';
import { handler } from '../../../functions/jobs/zip-build';
import { planComposedZip } from '../../../functions/adapters/zip/zip-compose';
import { planZip } from '../../../functions/adapters/zip/zip-stream';
import { crc32Portable } from '../../../functions/domain/crc32';

useUnitEnv();

const s3 = mockClient(S3Client);
const now = Date.now();
const SLUG = 'Zip0001';
const CONTENT: Record<string, string> = {
  Fil0000001: 'hello from the first file\n',
  Fil0000002: 'and the second, in a folder\n',
};
const files = [
  {
    ...keys.transferFile(SLUG, 'Fil0000001'),
    slug: SLUG,
    fileId: 'Fil0000001',
    key: `t/${SLUG}/Fil0000001`,
    fileName: 'a.txt',
    size: CONTENT.Fil0000001!.length,
    status: 'uploaded',
    createdAt: now - 2000,
  },
  {
    ...keys.transferFile(SLUG, 'Fil0000002'),
    slug: SLUG,
    fileId: 'Fil0000002',
    key: `t/${SLUG}/Fil0000002`,
    fileName: 'b.txt',
    itemPath: 'docs/b.txt',
    size: CONTENT.Fil0000002!.length,
    status: 'uploaded',
    createdAt: now - 1000,
  },
];
const HASH = zipContentHash(files);
/** the claim POST /zip made; the job holds the record's lease under it */
const ATTEMPT = '0f8e2c9a-3b1d-4e6f-8a7b-5c4d3e2f1a0b';
const transfer = {
  ...keys.transfer(SLUG),
  entity: 'Transfer',
  slug: SLUG,
  status: 'ready',
  region: 'hongkong',
  anon: true,
  recipients: [],
  expiryDate: now + 86_400_000,
  totalDownloads: 0,
};
/** the build's final write on its ZIP record (lease renewals set only leaseUntil) */
const zipFinish = (hash = HASH) =>
  ddbMock
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter(
      (i) =>
        (i.Key as { sk?: string }).sk === keys.transferZip(SLUG, hash).sk &&
        i.UpdateExpression !== 'SET leaseUntil = :l',
    );

beforeEach(() => {
  ddbMock.reset();
  s3.reset();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(UpdateCommand).resolves({});
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: transfer });
  ddbMock.on(GetCommand, { Key: keys.transferZip(SLUG, HASH) }).resolves({
    Item: {
      ...keys.transferZip(SLUG, HASH),
      slug: SLUG,
      contentHash: HASH,
      key: zipKey(SLUG, HASH),
      status: 'building',
      startedAt: now - 1000,
      attempt: ATTEMPT,
      leaseUntil: now + 60_000,
    },
  });
  ddbMock.on(QueryCommand).resolves({ Items: files });
  s3.on(GetObjectCommand).callsFake(async (input: { Key: string }) => {
    const text = CONTENT[input.Key.split('/').pop()!]!;
    return { Body: Readable.from([Buffer.from(text)]), ContentLength: text.length, ETag: '"src"' };
  });
  s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
  s3.on(UploadPartCommand).callsFake(async (input: { PartNumber: number }) => ({ ETag: `"p${input.PartNumber}"` }));
  s3.on(CompleteMultipartUploadCommand).resolves({ ETag: '"zip"' });
  s3.on(AbortMultipartUploadCommand).resolves({});
});

describe('ZIP build job', () => {
  it("streams each file from the transfer's bucket into one multipart upload of the ZIP, then marks it ready with its size", async () => {
    await handler({ slug: SLUG, contentHash: HASH, attempt: ATTEMPT });

    // the guest bucket of the transfer's region, for both reads and the upload
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input)).toEqual(
      files.map((f) => ({ Bucket: 'hk-anon', Key: f.key })),
    );
    expect(s3.commandCalls(CreateMultipartUploadCommand)[0]!.args[0].input).toMatchObject({
      Bucket: 'hk-anon',
      Key: zipKey(SLUG, HASH),
      ContentType: 'application/zip',
    });
    expect(s3.commandCalls(CreateMultipartUploadCommand)[0]!.args[0].input.ContentDisposition).toMatch(
      /^attachment; filename=/u,
    );
    const parts = s3.commandCalls(UploadPartCommand).map((c) => c.args[0].input);
    const zip = Buffer.concat(parts.map((p) => Buffer.from(p.Body as Uint8Array)));
    const entries = await readZip(zip);
    expect(entries.map((e) => [e.name, e.data.toString('utf8')])).toEqual([
      ['a.txt', CONTENT.Fil0000001],
      ['docs/b.txt', CONTENT.Fil0000002],
    ]);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input).toEqual({
      Bucket: 'hk-anon',
      Key: zipKey(SLUG, HASH),
      UploadId: 'up-1',
      MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.PartNumber, ETag: `"p${p.PartNumber}"` })) },
    });
    expect(zipFinish()).toEqual([
      expect.objectContaining({
        TableName: TABLE,
        ConditionExpression: 'attribute_exists(pk) AND attempt = :a',
        ExpressionAttributeValues: { ':s': 'ready', ':v': zip.length, ':a': ATTEMPT },
      }),
    ]);
    expect(s3.commandCalls(AbortMultipartUploadCommand)).toHaveLength(0);
  });

  it('a source gone from S3 (NoSuchKey): the upload is aborted, no ZIP completed, and the build recorded failed so POST /zip can start another', async () => {
    s3.on(GetObjectCommand, { Key: files[1]!.key }).rejects(
      serviceError('NoSuchKey', 'The specified key does not exist.', 404),
    );
    await handler({ slug: SLUG, contentHash: HASH, attempt: ATTEMPT });
    expect(s3.commandCalls(AbortMultipartUploadCommand)[0]!.args[0].input).toEqual({
      Bucket: 'hk-anon',
      Key: zipKey(SLUG, HASH),
      UploadId: 'up-1',
    });
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(zipFinish()).toEqual([
      expect.objectContaining({
        ExpressionAttributeNames: { '#s': 'status', '#e': 'error' },
        ExpressionAttributeValues: expect.objectContaining({ ':s': 'failed' }),
      }),
    ]);
  });

  it('S3 throttling a part (SlowDown): aborted and recorded failed, never left building', async () => {
    s3.on(UploadPartCommand).rejects(serviceError('SlowDown', 'Please reduce your request rate.', 503));
    await handler({ slug: SLUG, contentHash: HASH, attempt: ATTEMPT });
    expect(s3.commandCalls(AbortMultipartUploadCommand)).toHaveLength(1);
    expect(zipFinish()[0]!.ExpressionAttributeValues).toEqual({
      ':s': 'failed',
      ':v': 'Please reduce your request rate.',
      ':a': ATTEMPT,
    });
  });

  it('files changed since the request (another content hash): recorded failed without touching S3', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [files[0]!] });
    await handler({ slug: SLUG, contentHash: HASH, attempt: ATTEMPT });
    expect(s3.calls()).toHaveLength(0);
    expect(zipFinish()[0]!.ExpressionAttributeValues).toEqual({ ':s': 'failed', ':v': 'files changed', ':a': ATTEMPT });
  });

  it('a throttled table fails the invocation (the async invoke retries it) before anything is built', async () => {
    ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).rejects(throttled());
    await expect(handler({ slug: SLUG, contentHash: HASH, attempt: ATTEMPT })).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    expect(s3.calls()).toHaveLength(0);
  });

  it('a build whose attempt no longer holds the record (another took over) leaves it alone', async () => {
    await handler({ slug: SLUG, contentHash: HASH, attempt: '11111111-2222-4333-8444-555555555555' });
    expect(s3.calls()).toHaveLength(0);
    expect(zipFinish()).toEqual([]);
  });

  it('bad input is refused without a call to AWS', async () => {
    await handler({ slug: SLUG, contentHash: 'not-a-hash', attempt: ATTEMPT });
    expect(ddbMock.calls()).toHaveLength(0);
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('ZIP build job, files with their CRC-32 recorded at upload: composed inside S3', () => {
  const MiB = 1024 * 1024;
  // big enough for more copy ranges (1 GiB each) than requests in flight (8)
  const BIG = 10 * 1024 * MiB;
  const small = CONTENT.Fil0000002!;
  const withCrc = [
    { ...files[0]!, size: BIG, crc32: 0x1234abcd },
    { ...files[1]!, crc32: crc32Portable(Buffer.from(small)) },
  ];
  const hash = zipContentHash(withCrc);
  const plan = planComposedZip(
    planZip(
      withCrc.map((f) => ({ name: (f as { itemPath?: string }).itemPath ?? f.fileName, size: f.size })),
    ).entries.map((e) => ({
      nameBytes: Buffer.byteLength(e.entryName),
      size: e.size,
    })),
  );
  const lambda = mockClient(LambdaClient);

  beforeEach(() => {
    lambda.reset();
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
    ddbMock.on(QueryCommand).resolves({ Items: withCrc });
    ddbMock.on(GetCommand, { Key: keys.transferZip(SLUG, hash) }).resolves({
      Item: {
        ...keys.transferZip(SLUG, hash),
        slug: SLUG,
        contentHash: hash,
        key: zipKey(SLUG, hash),
        status: 'building',
        startedAt: now - 1000,
        attempt: ATTEMPT,
        leaseUntil: now + 60_000,
      },
    });
    // the state beside the archive: none yet
    s3.on(GetObjectCommand, { Key: `${zipKey(SLUG, hash)}.build.json` }).rejects(
      serviceError('NoSuchKey', 'The specified key does not exist.', 404),
    );
    s3.on(GetObjectCommand, { Key: files[0]!.key }).callsFake(async (input: { Range: string }) => {
      const [, a, b] = /bytes=(\d+)-(\d+)/u.exec(input.Range)!;
      return { Body: Readable.from([Buffer.alloc(Number(b) - Number(a) + 1, 7)]) };
    });
    s3.on(GetObjectCommand, { Key: files[1]!.key }).callsFake(async () => ({
      Body: Readable.from([Buffer.from(small)]),
    }));
    s3.on(UploadPartCommand).callsFake(async (input: { PartNumber: number; Body: AsyncIterable<Uint8Array> }) => {
      for await (const _chunk of input.Body);
      return { ETag: `"p${input.PartNumber}"` };
    });
    s3.on(UploadPartCopyCommand).callsFake(async (input: { PartNumber: number }) => ({
      CopyPartResult: { ETag: `"c${input.PartNumber}"` },
    }));
    s3.on(PutObjectCommand).resolves({});
    s3.on(DeleteObjectCommand).resolves({});
    s3.on(HeadObjectCommand).resolves({ ContentLength: plan.size });
  });

  it('copies the big file by ranges S3 moves itself, reads only heads and small files, and marks the ZIP ready', async () => {
    await handler({ slug: SLUG, contentHash: hash, attempt: ATTEMPT });
    const copies = s3.commandCalls(UploadPartCopyCommand).map((c) => c.args[0].input);
    expect(copies.length).toBe(plan.parts.filter((p) => p.kind === 'copy').length);
    expect(copies[0]).toMatchObject({ Bucket: 'hk-anon', CopySource: `hk-anon/${files[0]!.key}`, UploadId: 'up-1' });
    // what was read through: the 5 MiB head of the big file and the small file, not its copied bytes
    const readBytes = s3
      .commandCalls(GetObjectCommand)
      .map((c) => c.args[0].input)
      .filter((i) => i.Key === files[0]!.key)
      .reduce((n, i) => n + (Number(/-(\d+)$/u.exec(i.Range!)![1]) - Number(/=(\d+)-/u.exec(i.Range!)![1]) + 1), 0);
    expect(readBytes).toBe(plan.totals.readBytes - small.length);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input.MultipartUpload!.Parts).toHaveLength(
      plan.parts.length,
    );
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input.Key).toBe(`${zipKey(SLUG, hash)}.build.json`);
    const finish = zipFinish(hash);
    expect(finish).toEqual([
      expect.objectContaining({ ExpressionAttributeValues: { ':s': 'ready', ':v': plan.size, ':a': ATTEMPT } }),
    ]);
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
  });

  it('stops at its deadline with its parts kept, and starts itself again (its own function, the same claim)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    try {
      // the clock passes the run's deadline while its first parts are in flight
      s3.on(UploadPartCopyCommand).callsFake(async (input: { PartNumber: number }) => {
        vi.setSystemTime(now + 20 * 60_000);
        return { CopyPartResult: { ETag: `"c${input.PartNumber}"` } };
      });
      const context = {
        getRemainingTimeInMillis: () => 5 * 60_000,
        invokedFunctionArn: 'arn:aws:lambda:ap-east-1:123456789012:function:JobZipBuild',
      };
      await handler({ slug: SLUG, contentHash: hash, attempt: ATTEMPT }, context as never);
    } finally {
      vi.useRealTimers();
    }
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    // its progress kept beside the archive
    const state = s3.commandCalls(PutObjectCommand).at(-1)!.args[0].input;
    expect(state.Key).toBe(`${zipKey(SLUG, hash)}.build.json`);
    const done = Object.keys(JSON.parse(String(state.Body)).parts).length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(plan.parts.length);
    const [invoke] = lambda.commandCalls(InvokeCommand).map((c) => c.args[0].input);
    expect(invoke).toMatchObject({ InvocationType: 'Event' });
    expect(JSON.parse(String(invoke!.Payload))).toEqual({ slug: SLUG, contentHash: hash, attempt: ATTEMPT });
    // not failed, not ready: still building under the same claim
    const finish = zipFinish(hash);
    expect(finish).toEqual([]);
  });
});
