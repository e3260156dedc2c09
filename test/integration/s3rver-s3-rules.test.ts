import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { freePort } from '../../scripts/local/ports';
import { MIN_PART_BYTES, applyS3MultipartRules } from '../../scripts/local/s3rver-s3-rules';

// s3rver in this process, with the rules the local stack's s3rver child applies.
let server: S3rver;
let s3: S3Client;
const dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-s3rules-'));
const Bucket = 'rules';

beforeAll(async () => {
  expect(applyS3MultipartRules()).toBe(true);
  const port = await freePort();
  server = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true });
  await server.run();
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  await s3.send(new CreateBucketCommand({ Bucket }));
});

afterAll(async () => {
  s3?.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(Key: string) {
  return (await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }))).UploadId!;
}
async function part(Key: string, UploadId: string, PartNumber: number, body: Buffer) {
  return (await s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body }))).ETag!;
}
const complete = (Key: string, UploadId: string, Parts: { PartNumber: number; ETag: string }[]) =>
  s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }));

describe("s3rver with S3's multipart rules", () => {
  it('completes a valid upload byte-exact', async () => {
    const a = randomBytes(MIN_PART_BYTES);
    const b = randomBytes(10);
    const id = await start('ok');
    const parts = [
      { PartNumber: 1, ETag: await part('ok', id, 1, a) },
      { PartNumber: 2, ETag: await part('ok', id, 2, b) },
    ];
    await complete('ok', id, parts);
    const got = Buffer.from(
      await (await s3.send(new GetObjectCommand({ Bucket, Key: 'ok' }))).Body!.transformToByteArray(),
    );
    expect(createHash('sha256').update(got).digest('hex')).toBe(
      createHash('sha256')
        .update(Buffer.concat([a, b]))
        .digest('hex'),
    );
  });

  it('a part never uploaded is InvalidPart, and the server keeps running', async () => {
    const id = await start('ghost');
    const etag = await part('ghost', id, 1, randomBytes(MIN_PART_BYTES));
    await expect(
      complete('ghost', id, [
        { PartNumber: 1, ETag: etag },
        { PartNumber: 2, ETag: '"0123456789abcdef0123456789abcdef"' },
      ]),
    ).rejects.toMatchObject({ name: 'InvalidPart' });
    // still serving, and the upload can still be completed with its real parts
    await complete('ghost', id, [{ PartNumber: 1, ETag: etag }]);
  });

  it('a wrong ETag is InvalidPart', async () => {
    const id = await start('etag');
    await part('etag', id, 1, randomBytes(100));
    await expect(
      complete('etag', id, [{ PartNumber: 1, ETag: '"ffffffffffffffffffffffffffffffff"' }]),
    ).rejects.toMatchObject({ name: 'InvalidPart' });
  });

  it('a part under 5 MiB that is not the last is EntityTooSmall', async () => {
    const id = await start('small');
    const parts = [
      { PartNumber: 1, ETag: await part('small', id, 1, randomBytes(1024)) },
      { PartNumber: 2, ETag: await part('small', id, 2, randomBytes(10)) },
    ];
    await expect(complete('small', id, parts)).rejects.toMatchObject({ name: 'EntityTooSmall' });
  });

  it('parts out of order are InvalidPartOrder', async () => {
    const id = await start('order');
    const one = await part('order', id, 1, randomBytes(MIN_PART_BYTES));
    const two = await part('order', id, 2, randomBytes(10));
    await expect(
      complete('order', id, [
        { PartNumber: 2, ETag: two },
        { PartNumber: 1, ETag: one },
      ]),
    ).rejects.toMatchObject({ name: 'InvalidPartOrder' });
  });

  it('part numbers 0 and 10,001 are refused at upload', async () => {
    const id = await start('numbers');
    for (const n of [0, 10_001])
      await expect(part('numbers', id, n, randomBytes(10))).rejects.toMatchObject({ name: 'InvalidArgument' });
    await expect(part('numbers', id, 10_000, randomBytes(10))).resolves.toBeTruthy();
  });
});
