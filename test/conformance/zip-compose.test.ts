/**
 * The ZIP composed inside S3 (adapters/zip/s3-compose.ts) against both stores: moto, which
 * copies ranges itself (UploadPartCopy) and keeps S3's part rules, and s3rver, which cannot copy
 * a range, so the builder reads those parts through and checks each entry's CRC-32. Either way
 * the archive is byte-equal to the streaming builder's and passes unzip, 7-Zip and Python's
 * zipfile with every entry's name and SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildComposedZip, buildStateKey, CrcMismatchError } from '../../functions/adapters/zip/s3-compose';
import { planComposedZip } from '../../functions/adapters/zip/zip-compose';
import { crc32 } from '../../functions/adapters/zip/zip-format';
import { planZip, zipStream } from '../../functions/adapters/zip/zip-stream';
import { freePort } from '../../scripts/local/ports';
import { applyS3MultipartRules } from '../../scripts/local/s3rver-s3-rules';
import { type Moto, startMoto } from '../helpers/moto';
import { pythonZipCheck, sevenZipTest, unzipTest } from '../helpers/read-zip';

const MiB = 1024 * 1024;
const BUCKET = 'compose';
const NOW = Date.UTC(2026, 10, 28, 12);

/** Big enough for S3's 5 MiB rule to make copy ranges, small enough for a test. */
const FILES = [
  { name: 'footage/day 1.mov', data: randomBytes(12 * MiB) },
  { name: 'notes.txt', data: Buffer.from('tiny but present\n') },
  { name: 'empty.bin', data: Buffer.alloc(0) },
  { name: 'Überraschung/大きい.bin', data: randomBytes(7 * MiB + 3) },
  { name: 'footage/day 2.mov', data: randomBytes(11 * MiB + 1) },
];
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const zipPlan = planZip(
  FILES.map((f, i) => ({ ...f, key: `t/Compose1/file${i}`, size: f.data.length, mtime: NOW - i * 60_000 })),
  { now: NOW },
);
const entries = zipPlan.entries.map((e) => ({
  key: e.key,
  nameBytes: Buffer.from(e.entryName, 'utf8'),
  mtimeMs: e.mtimeMs,
  size: e.size,
  crc: crc32(e.data),
}));

const plan = planComposedZip(entries.map((e) => ({ nameBytes: e.nameBytes.length, size: e.size })));

async function streamedArchive(): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of zipStream(zipPlan, async function* (e) {
    yield e.data;
  }))
    out.push(Buffer.from(chunk));
  return Buffer.concat(out);
}

/** A client whose sent commands are counted by name. */
function countingClient(endpoint: string, credentials: { accessKeyId: string; secretAccessKey: string }) {
  const sent = new Map<string, number>();
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  s3.middlewareStack.add(
    (next, context) => (args) => {
      sent.set(context.commandName!, (sent.get(context.commandName!) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  return { s3, sent };
}

async function bytesOf(s3: S3Client, Key: string): Promise<Buffer> {
  const out = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

async function putSources(s3: S3Client): Promise<void> {
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  for (const [i, f] of FILES.entries())
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `t/Compose1/file${i}`, Body: f.data }));
}

function checkArchive(zip: Buffer, expected: Buffer): void {
  expect(zip.length).toBe(expected.length);
  expect(zip.equals(expected)).toBe(true);
  expect(unzipTest(zip)).toContain('No errors detected');
  expect(sevenZipTest(zip)).toContain('Everything is Ok');
  const py = pythonZipCheck(zip);
  expect(py.bad).toBeNull();
  expect(py.entries).toEqual(zipPlan.entries.map((e) => ({ name: e.entryName, size: e.size, sha256: sha(e.data) })));
}

describe('against moto: ranges copied by S3', () => {
  let moto: Moto;
  let client: ReturnType<typeof countingClient>;

  beforeAll(async () => {
    moto = await startMoto();
    client = countingClient(moto.url, { accessKeyId: 'compose', secretAccessKey: 'compose' });
    await putSources(client.s3);
  }, 120_000);
  afterAll(async () => {
    client?.s3.destroy();
    await moto?.stop();
  });

  it('builds the archive with UploadPartCopy, byte-equal to the streamed one, valid in three readers', async () => {
    client.sent.clear();
    const out = await buildComposedZip({
      s3: client.s3,
      sourceBucket: BUCKET,
      targetBucket: BUCKET,
      targetKey: 'z/Compose1/a.zip',
      entries,
      contentDisposition: 'attachment; filename="a.zip"',
    });
    expect(out.status).toBe('complete');
    // S3 copied each copy range; the builder sent only the parts it assembles (framing, heads, small files).
    expect(client.sent.get('UploadPartCopyCommand')).toBe(plan.parts.filter((p) => p.kind === 'copy').length);
    expect(client.sent.get('UploadPartCommand')).toBe(plan.parts.filter((p) => p.kind === 'upload').length);
    expect(plan.parts.filter((p) => p.kind === 'copy').length).toBeGreaterThanOrEqual(2);
    checkArchive(await bytesOf(client.s3, 'z/Compose1/a.zip'), await streamedArchive());
    const head = await client.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'z/Compose1/a.zip' }));
    expect(head.ContentType).toBe('application/zip');
    expect(head.ContentDisposition).toBe('attachment; filename="a.zip"');
    // The build's state goes once the archive is complete.
    const left = await client.s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'z/Compose1/' }));
    expect(left.Contents?.map((o) => o.Key)).toEqual(['z/Compose1/a.zip']);
  });

  it('pauses at its deadline with its parts kept, and the next invocation finishes the same archive', async () => {
    const Key = 'z/Compose1/paused.zip';
    let clock = 0;
    // The clock passes the deadline once two parts have started.
    const first = await buildComposedZip({
      s3: client.s3,
      sourceBucket: BUCKET,
      targetBucket: BUCKET,
      targetKey: Key,
      entries,
      concurrency: 1,
      deadline: 2,
      now: () => clock++,
    });
    expect(first.status).toBe('paused');
    if (first.status !== 'paused') return;
    expect(first.done).toBe(2);
    expect(first.parts).toBeGreaterThan(2);
    const state = JSON.parse((await bytesOf(client.s3, buildStateKey(Key))).toString()) as { parts: object };
    expect(Object.keys(state.parts)).toEqual(['1', '2']);

    client.sent.clear();
    const second = await buildComposedZip({
      s3: client.s3,
      sourceBucket: BUCKET,
      targetBucket: BUCKET,
      targetKey: Key,
      entries,
    });
    expect(second.status).toBe('complete');
    // Parts 1 and 2 were not sent again.
    const partsSent = (client.sent.get('UploadPartCommand') ?? 0) + (client.sent.get('UploadPartCopyCommand') ?? 0);
    expect(partsSent).toBe(first.parts - 2);
    checkArchive(await bytesOf(client.s3, Key), await streamedArchive());
  });
});

describe('against s3rver: no ranged copy, every byte read and its CRC-32 checked', () => {
  let server: S3rver;
  let client: ReturnType<typeof countingClient>;
  const dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-compose-'));

  beforeAll(async () => {
    expect(applyS3MultipartRules()).toBe(true);
    const port = await freePort();
    server = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true });
    await server.run();
    client = countingClient(`http://127.0.0.1:${port}`, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
    await putSources(client.s3);
  }, 120_000);
  afterAll(async () => {
    client?.s3.destroy();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the copy parts through and builds the same archive', async () => {
    client.sent.clear();
    const out = await buildComposedZip({
      s3: client.s3,
      sourceBucket: BUCKET,
      targetBucket: BUCKET,
      targetKey: 'z/Compose1/s3rver.zip',
      entries,
    });
    expect(out.status).toBe('complete');
    // Refused ranged copies (those already started when the first was refused), then every part uploaded.
    expect(client.sent.get('UploadPartCopyCommand')).toBeGreaterThanOrEqual(1);
    expect(client.sent.get('UploadPartCommand')).toBe(plan.parts.length);
    checkArchive(await bytesOf(client.s3, 'z/Compose1/s3rver.zip'), await streamedArchive());
  });

  it('refuses to complete an archive whose bytes differ from a recorded CRC-32', async () => {
    const Key = 'z/Compose1/wrong.zip';
    const wrong = entries.map((e, i) => (i === 3 ? { ...e, crc: (e.crc ^ 1) >>> 0 } : e));
    await expect(
      buildComposedZip({ s3: client.s3, sourceBucket: BUCKET, targetBucket: BUCKET, targetKey: Key, entries: wrong }),
    ).rejects.toBeInstanceOf(CrcMismatchError);
    await expect(client.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });
});
