/**
 * Resumable and verifiable downloads against the local stack: every completed file gets its
 * SHA-256 from the digest job (resumable across runs from its saved hash state), the manifest
 * route lists them, and the presigned GETs of files and of the ZIP answer Range and If-Range as
 * S3 does, so `curl -C -` resumes a download killed half way into the right bytes. (The test
 * stalls the download at half through a local proxy rather than by --limit-rate: curl 7.88's
 * rate limit does not hold back a fast loopback transfer.)
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import { localS3Client } from '../../scripts/local/s3';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import type { CreateTransferResponse, DownloadManifest } from '../../functions/domain/transfer-api';
import { runDigest } from '../../functions/services/digest';
import { startDownloadProxy, type DownloadProxy } from '../helpers/download-proxy';
import { api, stackBuckets, startTestApp } from '../helpers/local-app';
import { createUser, fileRecordOf, json, randomData, sendFiles, sha256, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let user: TestUser;
let s3: S3Client;
let bucket: string;
let proxy: DownloadProxy;
const work = mkdtempSync(path.join(tmpdir(), 'sendbridge-resume-'));

beforeAll(async () => {
  app = await startTestApp();
  user = await createUser(app, 'verify.sender@example.com');
  s3 = localS3Client(app.stack.urls.s3);
  bucket = stackBuckets(app.stack).bucket;
  proxy = await startDownloadProxy(app.apiOrigin, app.stack.urls.s3);
});

afterAll(async () => {
  await proxy?.close();
  s3?.destroy();
  await app?.stop();
  rmSync(work, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
const big = randomData(3 * MiB + 12_345);
const small = randomData(70_001);
let t: CreateTransferResponse;

const manifest = async (id: string, extra: Record<string, unknown> = {}) =>
  api(app, '/getDownload/manifest', json({ id, ...extra }));

async function storedSha(key: string): Promise<string> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return sha256(await out.Body!.transformToByteArray());
}

/** Forgets a file's digest, as if it had completed before digests existed. */
async function forgetDigest(slug: string, fileId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: app.stack.env.TABLE_NAME,
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'REMOVE sha256, digestAttempt, digestLeaseUntil, digestOffset, digestState, digestEtag',
    }),
  );
}

describe('the digest job and the manifest', () => {
  it('computes each file’s SHA-256 after it completes, and the manifest lists path, size and digest', async () => {
    t = await sendFiles(
      app,
      user,
      new Map([
        ['photos/big.bin', big],
        ['notes.txt', small],
      ]),
    );
    await app.gateway.idle();
    const res = await manifest(t.id);
    expect(res.status, res.text).toBe(200);
    const m = res.json as DownloadManifest;
    expect(m.complete).toBe(true);
    const listed = m.files.map(({ path: p, size, sha256: h }) => ({ path: p, size, sha256: h }));
    expect(listed.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'notes.txt', size: small.length, sha256: sha256(small) },
      { path: 'photos/big.bin', size: big.length, sha256: sha256(big) },
    ]);
  });

  it('starts a digest that never ran when the manifest is asked for, and says null meanwhile', async () => {
    const f = t.files.find((x) => x.fileName === 'notes.txt')!;
    await forgetDigest(t.id, f.fileId);
    const first = (await manifest(t.id)).json as DownloadManifest;
    expect(first.complete).toBe(false);
    expect(first.files.find((e) => e.fileId === f.fileId)?.sha256).toBeNull();
    await app.gateway.idle();
    const again = (await manifest(t.id)).json as DownloadManifest;
    expect(again.files.find((e) => e.fileId === f.fileId)?.sha256).toBe(sha256(small));
  });

  it('goes on from its saved hash state run after run, and a second claim meanwhile is refused', async () => {
    const f = t.files.find((x) => x.fileName === 'big.bin')!;
    await forgetDigest(t.id, f.fileId);
    const attempt = 'd0000000-0000-4000-8000-000000000001';
    // every run stops after its first chunk: the deadline has passed
    const offsets: number[] = [];
    let continued = 0;
    let result = await runDigest(
      { slug: t.id, fileId: f.fileId, attempt },
      { deadline: 0, continueRun: async () => void (continued += 1) },
    );
    expect(result).toBe('paused');
    expect(
      await runDigest(
        { slug: t.id, fileId: f.fileId, attempt: 'd0000000-0000-4000-8000-000000000002' },
        { deadline: 0, continueRun: async () => undefined },
      ),
    ).toBe('busy');
    for (let runs = 1; result === 'paused'; runs += 1) {
      if (runs > 10_000) throw new Error('the digest does not finish');
      const rec = await fileRecordOf(app, t.id, f.fileId);
      offsets.push(rec!.digestOffset!);
      result = await runDigest(
        { slug: t.id, fileId: f.fileId, attempt },
        { deadline: runs % 2 ? 0 : Number.POSITIVE_INFINITY, continueRun: async () => void (continued += 1) },
      );
    }
    expect(result).toBe('done');
    expect(offsets.length).toBeGreaterThan(1);
    // each run started where the last one stopped: the offsets only grow, and below the size
    for (let i = 1; i < offsets.length; i += 1) expect(offsets[i]!).toBeGreaterThan(offsets[i - 1]!);
    expect(offsets.at(-1)!).toBeLessThan(big.length);
    expect(continued).toBe(offsets.length);
    const done = await fileRecordOf(app, t.id, f.fileId);
    expect(done?.sha256).toBe(sha256(big));
    expect(done?.digestState).toBeUndefined();
    // a late retry of the finished attempt changes nothing
    expect(
      await runDigest({ slug: t.id, fileId: f.fileId, attempt }, { deadline: 0, continueRun: async () => undefined }),
    ).toBe('done');
  });

  it('keeps the download page’s gate: a password transfer answers 401 without it and lists with it', async () => {
    const p = await sendFiles(app, user, new Map([['secret.bin', small]]), { password: 'correct-horse-9' });
    expect((await manifest(p.id)).status).toBe(401);
    expect((await manifest(p.id, { password: 'wrong-password-1' })).status).toBe(401);
    const ok = await manifest(p.id, { password: 'correct-horse-9' });
    expect(ok.status, ok.text).toBe(200);
    expect((ok.json as DownloadManifest).files.map((e) => e.path)).toEqual(['secret.bin']);
  });
});

// ---- ranges --------------------------------------------------------------------------------

async function fileUrl(fileId: string): Promise<string> {
  const res = await api(app, '/getDownload/file', json({ id: t.id, fileId }));
  expect(res.status, res.text).toBe(200);
  return res.json.url as string;
}

async function zipUrl(): Promise<{ url: string; key: string }> {
  let res = await api(app, '/zip', json({ id: t.id }));
  if (res.status === 202) {
    await app.gateway.idle();
    res = await api(app, '/zip', json({ id: t.id }));
  }
  expect(res.status, res.text).toBe(200);
  const url = res.json.url as string;
  return { url, key: decodeURIComponent(new URL(url).pathname.split('/').slice(2).join('/')) };
}

describe('presigned GETs answer ranges as S3 does', () => {
  it('serves a file with Accept-Ranges and ETag, 206 and Content-Range for a range, If-Range and suffixes', async () => {
    const url = await fileUrl(t.files.find((x) => x.fileName === 'big.bin')!.fileId);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const etag = whole.headers.get('etag');
    expect(etag).toMatch(/^".+"$/u);
    await whole.arrayBuffer();

    const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${big.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(big.subarray(100, 200));

    const same = await fetch(url, { headers: { range: 'bytes=1000-', 'if-range': etag! } });
    expect(same.status).toBe(206);
    expect(same.headers.get('content-range')).toBe(`bytes 1000-${big.length - 1}/${big.length}`);
    expect(sha256(Buffer.from(await same.arrayBuffer()))).toBe(sha256(big.subarray(1000)));

    const changed = await fetch(url, { headers: { range: 'bytes=1000-', 'if-range': '"0123456789abcdef"' } });
    expect(changed.status).toBe(200);
    expect(sha256(Buffer.from(await changed.arrayBuffer()))).toBe(sha256(big));

    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(big.subarray(big.length - 10));

    const past = await fetch(url, { headers: { range: `bytes=${big.length}-` } });
    expect(past.status).toBe(416);
    await past.arrayBuffer();

    const mismatch = await fetch(url, { headers: { 'if-match': '"0123456789abcdef"' } });
    expect(mismatch.status).toBe(412);
    await mismatch.arrayBuffer();
  });

  it('serves the ZIP with Accept-Ranges, ETag and 206 ranges too', async () => {
    const { url } = await zipUrl();
    const head = await fetch(url, { headers: { range: 'bytes=0-3' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(head.headers.get('etag')).toMatch(/^".+"$/u);
    expect(head.headers.get('content-range')).toMatch(/^bytes 0-3\/\d+$/u);
    // a ZIP's local file header signature
    expect(Buffer.from(await head.arrayBuffer())).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });
});

// ---- curl, cut half way and resumed ---------------------------------------------------------

function run(args: readonly string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/**
 * Starts curl through the proxy, which sends three quarters of the object and then holds the
 * connection silent; once the file is past half (curl may still buffer the last few KiB), curl
 * is killed. Answers the bytes it left.
 */
async function cutHalfWay(url: string, key: string, out: string, total: number): Promise<number> {
  proxy.holdOnce(key, 0.75);
  const child = spawn('curl', ['-sS', '--fail', '-o', out, proxy.viaProxy(url)], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done && sizeOf(out) <= total / 2) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await exited;
  return sizeOf(out);
}

describe('curl -C - resumes a download cut half way', () => {
  it('for a single file: the result’s SHA-256 is the stored object’s and the manifest’s', async () => {
    const f = t.files.find((x) => x.fileName === 'big.bin')!;
    const out = path.join(work, 'big.bin');
    const url = await fileUrl(f.fileId);
    const key = (await fileRecordOf(app, t.id, f.fileId))!.key;
    const left = await cutHalfWay(url, key, out, big.length);
    expect(left).toBeGreaterThan(big.length / 2);
    expect(left).toBeLessThan(big.length);
    expect(await run(['-sS', '--fail', '-C', '-', '-o', out, url])).toBe(0);
    const got = createHash('sha256').update(readFileSync(out)).digest('hex');
    const m = (await manifest(t.id)).json as DownloadManifest;
    expect(got).toBe(m.files.find((e) => e.fileId === f.fileId)?.sha256);
    expect(got).toBe(await storedSha(key));
  });

  it('for the ZIP: the result’s SHA-256 is the stored archive’s', async () => {
    const { url, key } = await zipUrl();
    const size = (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength!;
    const out = path.join(work, 'all.zip');
    const left = await cutHalfWay(url, key, out, size);
    expect(left).toBeGreaterThan(size / 2);
    expect(left).toBeLessThan(size);
    expect(await run(['-sS', '--fail', '-C', '-', '-o', out, url])).toBe(0);
    expect(createHash('sha256').update(readFileSync(out)).digest('hex')).toBe(await storedSha(key));
  });
});
