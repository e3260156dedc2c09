import { createHash, randomBytes } from 'node:crypto';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceSizeError, buildZipToS3 } from '../../functions/adapters/zip/s3-zip';
import { localS3Client } from '../../scripts/local/s3';
import type { LocalStack } from '../../scripts/local/stack';
import { stackBuckets, startTestStack } from '../helpers/local-app';
import { readZip, unzipTest } from '../helpers/read-zip';

const MiB = 1024 * 1024;
/** this file's transfer bucket of the default region (set once the stack runs) */
let bucket = '';
const prefix = `it-zip-${Date.now()}`;

let stack: LocalStack;
let s3: S3Client;
/** what the ZIP job uses: an S3 client configured as the functions' */
let layer: S3Client;
const written: string[] = [];

const sources = [
  { name: 'videos/clip.mp4', data: randomBytes(20 * MiB + 12_345) },
  { name: 'photo.jpg', data: randomBytes(6 * MiB) },
  { name: 'empty.txt', data: Buffer.alloc(0) },
  { name: 'Ünïcødé 日本語.pdf', data: randomBytes(300_000) },
  { name: '../photo.jpg', data: randomBytes(1234) },
].map((s, i) => ({ ...s, key: `${prefix}/src/${i}`, mtime: Date.UTC(2025, 0, 1 + i, 12, 0, 0) }));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function download(key: string): Promise<Buffer> {
  const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

beforeAll(async () => {
  stack = await startTestStack();
  bucket = stackBuckets(stack).bucket;
  s3 = localS3Client(stack.urls.s3);
  layer = localS3Client(stack.urls.s3);
  for (const s of sources) {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: s.key, Body: s.data }));
    written.push(s.key);
  }
});

afterAll(async () => {
  if (s3 && written.length) {
    await s3
      .send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: written.map((Key) => ({ Key })) } }))
      .catch(() => undefined);
  }
  s3?.destroy();
  await stack?.stop();
});

describe('buildZipToS3 against s3rver', () => {
  it('streams five objects into a multipart ZIP whose entries hash to the sources', async () => {
    const targetKey = `${prefix}/zips/all.zip`;
    written.push(targetKey);
    const result = await buildZipToS3({
      s3: layer,
      sourceBucket: bucket,
      entries: sources.map((s) => ({ key: s.key, name: s.name, size: s.data.length, mtime: s.mtime })),
      targetBucket: bucket,
      targetKey,
      contentDisposition: 'attachment; filename="SendBridge.zip"',
    });
    // ~26.6 MiB at the default 16 MiB part size
    expect(result.parts).toBe(2);

    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: targetKey }));
    expect(head.ContentLength).toBe(result.size);
    expect(head.ContentType).toBe('application/zip');
    expect(head.ContentDisposition).toBe('attachment; filename="SendBridge.zip"');

    const zip = await download(targetKey);
    expect(zip.length).toBe(result.size);
    const entries = await readZip(zip);
    expect(entries.map((e) => e.name)).toEqual([
      'videos/clip.mp4',
      'photo.jpg',
      'empty.txt',
      'Ünïcødé 日本語.pdf',
      'photo (1).jpg',
    ]);
    entries.forEach((e, i) => {
      expect(sha(e.data), e.name).toBe(sha(sources[i]!.data));
      expect(e.entry.getLastModDate().getTime()).toBe(sources[i]!.mtime);
    });
    expect(unzipTest(zip)).toContain('No errors detected');
  });

  it('uses several parts at the 5 MiB minimum and still produces the same archive bytes', async () => {
    const targetKey = `${prefix}/zips/small-parts.zip`;
    written.push(targetKey);
    const entries = sources.map((s) => ({ key: s.key, name: s.name, size: s.data.length, mtime: s.mtime }));
    const result = await buildZipToS3({
      s3: layer,
      sourceBucket: bucket,
      entries,
      targetBucket: bucket,
      targetKey,
      partSize: 5 * MiB,
      concurrency: 4,
    });
    expect(result.parts).toBe(Math.ceil(result.size / (5 * MiB)));
    const zip = await download(targetKey);
    const read = await readZip(zip);
    expect(read.map((e) => sha(e.data))).toEqual(sources.map((s) => sha(s.data)));
  });

  it('refuses a source whose size differs from the declared one and leaves no archive behind', async () => {
    const targetKey = `${prefix}/zips/bad.zip`;
    const s = sources[1]!;
    const err = await buildZipToS3({
      s3: layer,
      sourceBucket: bucket,
      entries: [{ key: s.key, name: s.name, size: s.data.length + 1 }],
      targetBucket: bucket,
      targetKey,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceSizeError);
    expect((err as Error).message).toContain(`source object ${s.key} has ${s.data.length} bytes`);
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: targetKey }))).rejects.toMatchObject({
      name: 'NotFound',
    });
  });
});
