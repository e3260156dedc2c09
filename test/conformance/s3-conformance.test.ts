/**
 * The storage adapter's S3 operations against moto_server, which keeps S3's rules where s3rver
 * (the local stack's emulator) does not: the 5 MiB part minimum, part numbers 1-10,000, part
 * ETags, ListParts and Abort, ranged UploadPartCopy, lifecycle configuration, tagging, and the
 * SDK's aws-chunked checksum bodies. moto does not check presigned signatures: the URLs are
 * checked for what they sign by the unit tests; here they only carry the bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateBucketCommand,
  GetBucketLifecycleConfigurationCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutBucketLifecycleConfigurationCommand,
  PutObjectCommand,
  S3Client,
  type LifecycleRule,
} from '@aws-sdk/client-s3';
import { synthSendBridge, resourcesOf } from '../infra/synth';
import { startMoto, type Moto } from '../helpers/moto';

type Storage = typeof import('../../functions/adapters/storage');

const MiB = 1024 * 1024;
const BUCKET = 'conformance-transfers';
const ANON_BUCKET = 'conformance-anon';
const AWS_REGION = 'ap-east-1';

let moto: Moto;
let storage: Storage;
/** A plain client of the SDK's defaults, for what the adapter does not do itself (setup, reads). */
let raw: S3Client;

const ref = (key: string) => ({ regionId: 'hongkong' as const, anon: false, key });

beforeAll(async () => {
  moto = await startMoto();
  Object.assign(process.env, {
    REGION_BUCKETS: JSON.stringify({ hongkong: { bucket: BUCKET, anonBucket: ANON_BUCKET, awsRegion: AWS_REGION } }),
    S3_ENDPOINT: moto.url,
    AWS_ACCESS_KEY_ID: 'conformance',
    AWS_SECRET_ACCESS_KEY: 'conformance',
    TABLE_NAME: 'unused',
    USER_POOL_ID: 'unused',
    USER_POOL_CLIENT_ID: 'unused',
    MAIL_FROM: 'unused@example.com',
    APP_ORIGIN: 'http://127.0.0.1',
  });
  storage = await import('../../functions/adapters/storage');
  raw = new S3Client({
    region: AWS_REGION,
    endpoint: moto.url,
    forcePathStyle: true,
    credentials: { accessKeyId: 'conformance', secretAccessKey: 'conformance' },
  });
  for (const Bucket of [BUCKET, ANON_BUCKET]) {
    await raw.send(new CreateBucketCommand({ Bucket, CreateBucketConfiguration: { LocationConstraint: AWS_REGION } }));
  }
}, 300_000);

afterAll(async () => {
  raw?.destroy();
  await moto?.stop();
});

/** What a browser does with a presigned part URL: a PUT of the bytes, nothing else. */
async function putPart(url: string, body: Uint8Array): Promise<{ status: number; etag: string | null; text: string }> {
  const res = await fetch(url, { method: 'PUT', body: new Blob([new Uint8Array(body)]) });
  return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
}

async function bytesOf(key: string): Promise<Buffer> {
  const out = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

describe("multipart uploads keep S3's part rules", () => {
  it('a file of 5 MiB parts and a short last part completes byte-exact through presigned part URLs', async () => {
    const key = 't/Conf001/f1';
    const body = randomBytes(11 * MiB);
    const uploadId = await storage.startMultipart(ref(key));
    const parts = [];
    for (const [n, start, end] of [
      [1, 0, 5 * MiB],
      [2, 5 * MiB, 10 * MiB],
      [3, 10 * MiB, 11 * MiB],
    ] as const) {
      const url = await storage.presignPart(ref(key), uploadId, n, end - start, 600);
      expect(url).not.toMatch(/x-amz-checksum|x-amz-sdk-checksum/iu);
      const put = await putPart(url, body.subarray(start, end));
      expect(put.status, put.text).toBe(200);
      parts.push({ partNumber: n, etag: put.etag! });
    }
    // ListParts sees what was uploaded, with S3's sizes and ETags.
    const listed = await raw.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId }));
    expect(listed.Parts?.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual(
      parts.map((p, i) => [p.partNumber, i < 2 ? 5 * MiB : MiB, p.etag]),
    );
    await storage.completeMultipart(ref(key), uploadId, parts);
    expect(await storage.objectSize(ref(key))).toBe(11 * MiB);
    expect(sha(await bytesOf(key))).toBe(sha(body));
  });

  it("S3 takes the full-object CRC-32 type at the start and the file's CRC-32 at the completion, parts unchanged", async () => {
    const key = 't/Conf001/f2';
    const body = randomBytes(6 * MiB);
    const uploadId = await storage.startMultipart(ref(key));
    const parts = [];
    for (const [n, start, end] of [
      [1, 0, 5 * MiB],
      [2, 5 * MiB, 6 * MiB],
    ] as const) {
      const put = await putPart(
        await storage.presignPart(ref(key), uploadId, n, end - start, 600),
        body.subarray(start, end),
      );
      expect(put.status, put.text).toBe(200);
      parts.push({ partNumber: n, etag: put.etag! });
    }
    await storage.completeMultipart(ref(key), uploadId, parts, crc32(body));
    const head = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key, ChecksumMode: 'ENABLED' }));
    expect(head.ChecksumCRC32).toBe(storage.crc32Header(crc32(body)));
    expect(sha(await bytesOf(key))).toBe(sha(body));
  });

  it('a part under 5 MiB that is not the last fails the completion with a 4xx (EntityTooSmall)', async () => {
    const key = 't/Conf002/f1';
    const uploadId = await storage.startMultipart(ref(key));
    const parts = [];
    for (const n of [1, 2]) {
      const put = await putPart(await storage.presignPart(ref(key), uploadId, n, MiB, 600), randomBytes(MiB));
      parts.push({ partNumber: n, etag: put.etag! });
    }
    const err = await storage.completeMultipart(ref(key), uploadId, parts).catch((e: unknown) => e);
    expect((err as Error).name).toBe('EntityTooSmall');
    // the product resets such a file (services/transfers.ts isClientFault): the status must be a 4xx
    expect(statusOf(err)).toBe(400);
    expect(await storage.objectSize(ref(key))).toBeUndefined();
  });

  it('part numbers 0 and 10,001 are refused; 10,000 is accepted', async () => {
    const key = 't/Conf003/f1';
    const uploadId = await storage.startMultipart(ref(key));
    for (const n of [0, 10_001]) {
      const put = await putPart(await storage.presignPart(ref(key), uploadId, n, 10, 600), randomBytes(10));
      expect(put.status, `part ${n}`).toBeGreaterThanOrEqual(400);
      expect(put.status, `part ${n}`).toBeLessThan(500);
    }
    expect(
      (await putPart(await storage.presignPart(ref(key), uploadId, 10_000, 10, 600), randomBytes(10))).status,
    ).toBe(200);
    await storage.abortMultipart(ref(key), uploadId);
  });

  it('a wrong part ETag fails the completion with InvalidPart, a 4xx', async () => {
    const key = 't/Conf004/f1';
    const uploadId = await storage.startMultipart(ref(key));
    await putPart(await storage.presignPart(ref(key), uploadId, 1, 100, 600), randomBytes(100));
    const err = await storage
      .completeMultipart(ref(key), uploadId, [{ partNumber: 1, etag: '"0123456789abcdef0123456789abcdef"' }])
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('InvalidPart');
    expect(statusOf(err)).toBe(400);
  });

  it('an aborted upload is gone: ListParts answers NoSuchUpload, and a second abort is harmless', async () => {
    const key = 't/Conf005/f1';
    const uploadId = await storage.startMultipart(ref(key));
    await putPart(await storage.presignPart(ref(key), uploadId, 1, 100, 600), randomBytes(100));
    await storage.abortMultipart(ref(key), uploadId);
    const err = await raw
      .send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId }))
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('NoSuchUpload');
    await expect(storage.abortMultipart(ref(key), uploadId)).resolves.toBeUndefined();
  });
});

describe('server-side copies', () => {
  it('a multipart copy of ranged UploadPartCopy parts is byte-exact (5 MiB parts, a short last one)', async () => {
    const body = randomBytes(12 * MiB + 123);
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: 't/Conf006/src', Body: body }));
    await storage.copyObject(ref('t/Conf006/src'), ref('t/Conf007/copy'), body.length, {
      singleCopyMax: 5 * MiB,
      partBytes: 5 * MiB,
    });
    expect(sha(await bytesOf('t/Conf007/copy'))).toBe(sha(body));
  });

  it('parts of a multipart copy under 5 MiB are refused by S3, and the upload is aborted', async () => {
    const body = randomBytes(3 * MiB);
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: 't/Conf008/src', Body: body }));
    await expect(
      storage.copyObject(ref('t/Conf008/src'), ref('t/Conf008/copy'), body.length, {
        singleCopyMax: MiB,
        partBytes: MiB,
      }),
    ).rejects.toMatchObject({ name: 'EntityTooSmall' });
    expect(await storage.objectSize(ref('t/Conf008/copy'))).toBeUndefined();
  });

  it("a copy leaves the source's tags (GuardDuty's scan result) behind; S3's default would carry them", async () => {
    await raw.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 't/Conf009/src',
        Body: 'scanned',
        Tagging: 'GuardDutyMalwareScanStatus=NO_THREATS_FOUND',
      }),
    );
    await storage.copyObject(ref('t/Conf009/src'), ref('t/Conf009/copy'), 7);
    expect((await raw.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key: 't/Conf009/copy' }))).TagSet).toEqual([]);
    expect((await bytesOf('t/Conf009/copy')).toString()).toBe('scanned');
    // Without the directive S3 copies the tags, which needs s3:GetObjectTagging/PutObjectTagging.
    const { CopyObjectCommand } = await import('@aws-sdk/client-s3');
    await raw.send(
      new CopyObjectCommand({ Bucket: BUCKET, Key: 't/Conf009/default', CopySource: `${BUCKET}/t/Conf009/src` }),
    );
    expect((await raw.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key: 't/Conf009/default' }))).TagSet).toEqual([
      { Key: 'GuardDutyMalwareScanStatus', Value: 'NO_THREATS_FOUND' },
    ]);
  });

  it('a missing source is NoSuchKey to the caller', async () => {
    const err = await storage.copyObject(ref('t/Conf010/none'), ref('t/Conf010/copy'), 5).catch((e: unknown) => e);
    expect(storage.isMissingObject(err)).toBe(true);
  });
});

describe("the SDK's checksums", () => {
  it("the adapter's PutObject sends no aws-chunked body, and the bytes are stored exactly", async () => {
    const body = randomBytes(256 * 1024);
    await storage.putSmallObject(ref('t/Conf011/thumb.webp'), body, 'image/webp');
    expect(sha(await bytesOf('t/Conf011/thumb.webp'))).toBe(sha(body));
  });

  it('presigned single PUTs carry no checksum parameter a browser could not match', async () => {
    const url = await storage.presignPut(ref('t/Conf012/f1'), 5, 600);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
    expect(url).not.toMatch(/x-amz-checksum|x-amz-sdk-checksum/iu);
    expect((await putPart(url, Buffer.from('hello'))).status).toBe(200);
    expect((await bytesOf('t/Conf012/f1')).toString()).toBe('hello');
  });

  it("the SDK's default CRC32 streaming body (what the adapter avoids for s3rver) is decoded by S3", async () => {
    const body = randomBytes(70 * 1024);
    const sdkDefault = new S3Client({
      region: AWS_REGION,
      endpoint: moto.url,
      forcePathStyle: true,
      credentials: { accessKeyId: 'conformance', secretAccessKey: 'conformance' },
    });
    const { Readable } = await import('node:stream');
    await sdkDefault.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 't/Conf013/f1',
        Body: Readable.from([body]),
        ContentLength: body.length,
      }),
    );
    sdkDefault.destroy();
    expect(sha(await bytesOf('t/Conf013/f1'))).toBe(sha(body));
  });
});

describe('reads and deletes', () => {
  it('a ranged read of the first bytes, and undefined for a missing object', async () => {
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: 't/Conf014/f1', Body: '%PDF-1.7 rest' }));
    expect(Buffer.from((await storage.readObjectHead(ref('t/Conf014/f1'), 5))!).toString()).toBe('%PDF-');
    expect(await storage.readObjectHead(ref('t/Conf014/none'), 5)).toBeUndefined();
    expect(await storage.objectHead(ref('t/Conf014/none'))).toBeUndefined();
  });

  it('deletePrefix pages through more than 1,000 keys', async () => {
    await Promise.all(
      Array.from({ length: 1_005 }, (_, i) =>
        raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: `t/Conf015/${i}`, Body: 'x' })),
      ),
    );
    expect(await storage.deletePrefix({ regionId: 'hongkong', anon: false }, 't/Conf015/')).toBe(1_005);
    expect(await storage.deletePrefix({ regionId: 'hongkong', anon: false }, 't/Conf015/')).toBe(0);
  }, 300_000);
});

describe('ranged and conditional reads, as a resumed download makes them', () => {
  // what the local emulator was taught (scripts/local/s3rver-conditional-reads.ts), checked here against
  // moto; moto ignores If-Range (S3 honours it), so a stale If-Range is checked on s3rver only
  it('a presigned download answers Range with 206 and Content-Range, suffixes, 416, and If-Match with 412', async () => {
    const data = randomBytes(300_000);
    await raw.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'resume/a.bin', Body: data }));
    const url = await storage.presignDownload(ref('resume/a.bin'), 'a.bin', 900);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/u);
    await whole.arrayBuffer();
    const part = await fetch(url, { headers: { range: 'bytes=1000-', 'if-range': etag } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-${data.length - 1}/${data.length}`);
    expect(sha(new Uint8Array(await part.arrayBuffer()))).toBe(sha(data.subarray(1000)));
    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(data.subarray(data.length - 10));
    const past = await fetch(url, { headers: { range: `bytes=${data.length}-` } });
    expect(past.status).toBe(416);
    await past.arrayBuffer();
    await expect(storage.readObjectFrom(ref('resume/a.bin'), 10, '"0123456789abcdef"')).rejects.toSatisfy(
      (err: unknown) => statusOf(err) === 412,
    );
    const from = await storage.readObjectFrom(ref('resume/a.bin'), 299_990, etag);
    expect(from.etag).toBe(etag);
    const rest: Buffer[] = [];
    for await (const c of from.body) rest.push(c as Buffer);
    expect(Buffer.concat(rest)).toEqual(data.subarray(299_990));
  });
});

describe("the storage stack's lifecycle rules", () => {
  it("S3 accepts every bucket's rules as the stack writes them, and reads them back unchanged", async () => {
    const t = synthSendBridge({ regions: 'hongkong' });
    const buckets = resourcesOf(t.template([...t.storage.values()][0]!), 'AWS::S3::Bucket');
    const configs = Object.values(buckets)
      .map((b) => (b.Properties?.LifecycleConfiguration as { Rules: Record<string, any>[] } | undefined)?.Rules)
      .filter((r): r is Record<string, any>[] => r !== undefined);
    expect(configs.length).toBeGreaterThanOrEqual(2);
    for (const [i, rules] of configs.entries()) {
      // CloudFormation's shape -> the S3 API's
      const Rules: LifecycleRule[] = rules.map((r) => ({
        ID: r.Id,
        Status: r.Status,
        Filter: { Prefix: r.Prefix ?? '' },
        ...(r.ExpirationInDays ? { Expiration: { Days: r.ExpirationInDays } } : {}),
        ...(r.AbortIncompleteMultipartUpload
          ? {
              AbortIncompleteMultipartUpload: {
                DaysAfterInitiation: r.AbortIncompleteMultipartUpload.DaysAfterInitiation,
              },
            }
          : {}),
        ...(r.NoncurrentVersionExpiration
          ? { NoncurrentVersionExpiration: { NoncurrentDays: r.NoncurrentVersionExpiration.NoncurrentDays } }
          : {}),
      }));
      const Bucket = `conformance-lifecycle-${i}`;
      await raw.send(
        new CreateBucketCommand({ Bucket, CreateBucketConfiguration: { LocationConstraint: AWS_REGION } }),
      );
      await raw.send(new PutBucketLifecycleConfigurationCommand({ Bucket, LifecycleConfiguration: { Rules } }));
      const back = await raw.send(new GetBucketLifecycleConfigurationCommand({ Bucket }));
      expect(
        back.Rules?.map((r) => [
          r.ID,
          r.Status,
          r.Expiration?.Days,
          r.AbortIncompleteMultipartUpload?.DaysAfterInitiation,
        ]),
      ).toEqual(
        Rules.map((r) => [r.ID, r.Status, r.Expiration?.Days, r.AbortIncompleteMultipartUpload?.DaysAfterInitiation]),
      );
    }
  }, 300_000);
});
