/**
 * The CLI's end-to-end encryption against the real local stack, both ways with the format's
 * reference module used as the browser uses it: `sendbridge send --e2e` seals a folder (one file
 * multipart) that opens with the key from the printed link's fragment; a transfer sealed by the
 * reference module downloads and decrypts with `sendbridge get`, SHA-256 equal; a byte flipped in
 * the stored object fails with the tamper message and leaves no file; a wrong passphrase is
 * refused before any download; an interrupted encrypted send resumes with the same key and
 * salts. The CLI runs in this process (its main()) with fetch recorded, so the test sees that no
 * request carries the key or the passphrase, and that no line it prints does (but the link
 * handed to the sender, whose fragment is the key).
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import {
  cipherSizeOf,
  fileKeyOf,
  keyCheckOf,
  keyFragment,
  keyFromFragment,
  keyFromPassphrase,
  keyMatches,
  newFileParams,
  newTransferKey,
  openingStream,
  sealRange,
  toBase64url,
} from '../../functions/domain/e2e-format';
import type { CreateApiKeyResponse } from '../../functions/domain/api-keys';
import type { CreateTransferResponse, DownloadView, UploadStateResponse } from '../../functions/domain/transfer-api';
import { MULTIPART_THRESHOLD_BYTES } from '../../functions/domain/upload';
import type { LocalApp } from '../../scripts/local/app';
import { localS3Client } from '../../scripts/local/s3';
import { main } from '../../packages/cli/src/main';
import { api, stackBuckets, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  fetchBytes,
  fileRecordOf,
  json,
  randomData,
  sha256,
  uploadAll,
  type TestUser,
} from '../helpers/transfers';
import { buildCli, runCli, type CliRun, type RunOptions } from '../helpers/cli-runner';

let app: LocalApp;
let alice: TestUser;
let apiKey: string;
let work: string;
let configDir: string;
let s3: S3Client;
let bucket: string;
const APP_ORIGIN = 'http://127.0.0.1:5999';

interface Seen {
  url: string;
  method: string;
  headers: string;
  body: Buffer | string;
}
/** every request the CLI made while it ran in this process */
const seen: Seen[] = [];
let recording = false;
const realFetch = globalThis.fetch;

interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI's main() in this process, its fetch recorded; `env` adds to the key and config folder. */
async function cliHere(args: string[], env: Record<string, string> = {}): Promise<InProcessRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  recording = true;
  try {
    const code = await main([...args, '--api', app.apiOrigin], {
      stdin: Readable.from([]),
      stdout,
      stderr,
      env: { SENDBRIDGE_API_KEY: apiKey, SENDBRIDGE_CONFIG_DIR: configDir, ...env },
      cwd: work,
    });
    return { code, stdout: out, stderr: err };
  } finally {
    recording = false;
  }
}

/** The CLI binary as a child process (for an interrupt: SIGINT). */
const cliChild = (args: string[], opts: RunOptions = {}): Promise<CliRun> =>
  runCli([...args, '--api', app.apiOrigin], { cwd: work, home: work, configDir }, opts);

function bodyOf(body: unknown): Buffer | string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  return `<${Object.prototype.toString.call(body)}>`;
}

/** No recorded request carries any of `secrets` (text) or `raw` (bytes), in its URL, headers or body. */
function expectNoRequestCarries(secrets: string[], raw: Uint8Array[] = []) {
  expect(seen.length).toBeGreaterThan(0);
  for (const r of seen) {
    const text = `${r.method} ${r.url}\n${r.headers}\n${typeof r.body === 'string' ? r.body : ''}`;
    for (const s of secrets) expect(text.includes(s), `${r.method} ${r.url} carries a secret`).toBe(false);
    if (typeof r.body !== 'string') {
      for (const s of secrets) expect(r.body.includes(Buffer.from(s)), `${r.url}: body carries a secret`).toBe(false);
      for (const k of raw) expect(r.body.includes(Buffer.from(k)), `${r.url}: body carries the key`).toBe(false);
    }
  }
}

async function storedObject(slug: string, fileId: string): Promise<{ key: string; bytes: Buffer }> {
  const record = await fileRecordOf(app, slug, fileId);
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: record!.key }));
  return { key: record!.key, bytes: Buffer.from(await out.Body!.transformToByteArray()) };
}

/** A sealed object opened as the recipient's browser opens it: the stream through openingStream. */
async function openAsBrowser(url: string, transferKey: Uint8Array, salt: string, plainSize: number): Promise<Buffer> {
  const res = await realFetch(url);
  expect(res.status).toBe(200);
  const opened = res.body!.pipeThrough(openingStream(await fileKeyOf(transferKey, salt), plainSize));
  const parts: Uint8Array[] = [];
  for await (const p of opened as unknown as AsyncIterable<Uint8Array>) parts.push(p);
  return Buffer.concat(parts);
}

/** Every file under `dir`, relative, '/'-separated. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name), `${rel}${e.name}/`);
      else out.push(`${rel}${e.name}`);
    }
  };
  walk(dir, '');
  return out.sort();
}

beforeAll(async () => {
  buildCli();
  app = await startTestApp(APP_ORIGIN);
  alice = await createUser(app, 'alice.e2e.cli@example.com');
  const made = await api(app, '/me/api-keys', json({ name: 'cli', scopes: ['send', 'transfers:read'] }, bearer(alice)));
  expect(made.status, made.text).toBe(201);
  apiKey = (made.json as CreateApiKeyResponse).key;
  work = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-cli-e2e-enc-'));
  configDir = path.join(work, 'config');
  s3 = localS3Client(app.stack.urls.s3);
  bucket = stackBuckets(app.stack).bucket;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (recording) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      seen.push({
        url,
        method: init?.method ?? 'GET',
        headers: JSON.stringify(init?.headers ?? {}),
        body: bodyOf(init?.body),
      });
    }
    return realFetch(input, init);
  }) as typeof fetch;
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  s3?.destroy();
  await app?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

describe('sendbridge send --e2e', () => {
  it('seals a folder the browser opens with the key from the link; the bucket holds ciphertext; nothing sent or logged carries the key', async () => {
    const folder = path.join(work, 'sealed');
    mkdirSync(path.join(folder, 'sub'), { recursive: true });
    const contents = new Map<string, Buffer>([
      ['sealed/a.txt', randomData(1500)],
      ['sealed/big.bin', randomData(MULTIPART_THRESHOLD_BYTES + 4321)],
      ['sealed/sub/empty.bin', Buffer.alloc(0)],
      ['sealed/sub/b.bin', randomData(3 * MiB)],
    ]);
    for (const [rel, data] of contents) writeFileSync(path.join(work, rel), data);
    seen.length = 0;
    const run = await cliHere(['send', 'sealed', '--link', '--e2e', '--json']);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const done = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { event: string; id: string; link: string };
    expect(done).toMatchObject({ event: 'done', e2e: 'link' });
    const transferKey = keyFromFragment(new URL(done.link).hash)!;
    expect(transferKey).not.toBeNull();
    const k = toBase64url(transferKey);

    // the browser's way: the view's check opens with the fragment's key, every file streams open
    const view = (await api(app, '/getDownload', json({ id: done.id }))).json as DownloadView;
    expect(view.e2e?.mode).toBe('link');
    expect(await keyMatches(transferKey, view.e2e!.check)).toBe(true);
    expect(view.files.map((f) => f.itemPath).sort()).toEqual([...contents.keys()].sort());
    for (const f of view.files) {
      const plain = contents.get(f.itemPath!)!;
      expect(f.e2e?.plainSize).toBe(plain.length);
      expect(f.size).toBe(cipherSizeOf(plain.length));
      const link = await api(app, '/getDownload/file', json({ id: done.id, fileId: f.fileId }));
      expect(link.status, link.text).toBe(200);
      const opened = await openAsBrowser(link.json.url as string, transferKey, f.e2e!.salt, plain.length);
      expect(sha256(opened), f.itemPath).toBe(sha256(plain));
      const raw = await storedObject(done.id, f.fileId);
      expect(raw.bytes.length).toBe(cipherSizeOf(plain.length));
      if (plain.length >= 4096) expect(raw.bytes.includes(plain.subarray(1024, 1024 + 4096))).toBe(false);
    }
    const big = view.files.find((f) => f.itemPath === 'sealed/big.bin')!;
    expect((await fileRecordOf(app, done.id, big.fileId))?.scanStatus).toBe('unscanned');

    // no request carries the key; no line but the final link does
    expectNoRequestCarries([k, keyFragment(transferKey)], [transferKey]);
    expect(run.stderr).not.toContain(k);
    const lines = run.stdout.trim().split('\n');
    for (const line of lines.slice(0, -1)) expect(line).not.toContain(k);
  }, 240_000);

  it('by email with a passphrase from a file: the browser opens it with the passphrase; a wrong passphrase is refused before any download; the passphrase is never sent nor printed', async () => {
    const passphrase = 'correct horse battery staple';
    const passFile = path.join(work, 'pass.txt');
    writeFileSync(passFile, `${passphrase}\n`, { mode: 0o600 });
    const data = randomData(2 * MiB + 77);
    writeFileSync(path.join(work, 'report.pdf'), data);
    seen.length = 0;
    const run = await cliHere([
      'send',
      'report.pdf',
      '--to',
      'rita.e2e@example.com',
      '--e2e',
      '--passphrase-file',
      passFile,
      '--json',
    ]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const done = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { id: string; link: string };
    const view = (await api(app, '/getDownload', json({ id: done.id }))).json as DownloadView;
    expect(view.e2e?.mode).toBe('passphrase');
    const transferKey = await keyFromPassphrase(passphrase, view.e2e!.kdf!);
    expect(await keyMatches(transferKey, view.e2e!.check)).toBe(true);
    const f = view.files[0]!;
    const link = await api(app, '/getDownload/file', json({ id: done.id, fileId: f.fileId }));
    expect(sha256(await openAsBrowser(link.json.url as string, transferKey, f.e2e!.salt, data.length))).toBe(
      sha256(data),
    );
    expectNoRequestCarries([passphrase, toBase64url(transferKey)], [transferKey]);
    expect(run.stdout + run.stderr).not.toContain(passphrase);
    expect(run.stdout + run.stderr).not.toContain(toBase64url(transferKey));

    // get: a wrong passphrase stops before any file is asked for; the right one opens it
    const out = path.join(work, 'got-pass');
    seen.length = 0;
    const wrong = await cliHere(['get', done.id, '-o', out], { SENDBRIDGE_PASSPHRASE: 'not the passphrase' });
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(wrong.stderr).toContain('This passphrase does not open the transfer');
    expect(seen.some((r) => r.url.includes('/getDownload/file'))).toBe(false);
    expect(filesUnder(out)).toEqual([]);
    const right = await cliHere(['get', done.id, '-o', out, '--passphrase-file', passFile]);
    expect(right.code, right.stderr).toBe(0);
    expect(sha256(readFileSync(path.join(out, 'report.pdf')))).toBe(sha256(data));
    expectNoRequestCarries([passphrase, toBase64url(transferKey)], [transferKey]);
    expect(right.stdout + right.stderr).not.toContain(passphrase);
  }, 180_000);

  it('refuses a passphrase given as an argument, an email send without one, and --zip of an encrypted transfer', async () => {
    writeFileSync(path.join(work, 'x.bin'), randomData(10));
    const argv = await cliHere(['send', 'x.bin', '--link', '--e2e', '--passphrase', 'hunter22']);
    expect(argv.code).toBe(1);
    expect(argv.stderr).toContain('process list');
    const argv2 = await cliHere(['get', 'abc', '--passphrase=hunter22']);
    expect(argv2.code).toBe(1);
    expect(argv2.stderr).not.toContain('hunter22');
    const none = await cliHere(['send', 'x.bin', '--to', 'r@example.com', '--e2e']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--passphrase-file');
    const noKey = await cliHere(['send', 'x.bin', '--link', '--e2e'], { SENDBRIDGE_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('End-to-end encryption needs an account');
  });
});

describe('sendbridge get of a transfer sealed by the reference module (as the browser seals)', () => {
  const transferKey = newTransferKey();
  const photo = randomData(900_001);
  const video = randomData(12 * MiB + 5);
  const photoParams = newFileParams(photo.length);
  const videoParams = newFileParams(video.length);
  let t: CreateTransferResponse;
  let link: string;

  beforeAll(async () => {
    const res = await api(
      app,
      '/me/transfers',
      json(
        {
          sendAs: 'link',
          e2e: { v: 1, mode: 'link', check: await keyCheckOf(transferKey) },
          fileObjects: [
            {
              fileName: 'photo.jpg',
              itemPath: 'album/photo.jpg',
              size: cipherSizeOf(photo.length),
              e2e: { salt: photoParams.salt, plainSize: photo.length },
            },
            {
              fileName: 'clip.mp4',
              itemPath: 'album/clip.mp4',
              size: cipherSizeOf(video.length),
              e2e: { salt: videoParams.salt, plainSize: video.length },
            },
          ],
        },
        bearer(alice),
      ),
    );
    expect(res.status, res.text).toBe(201);
    t = res.json as CreateTransferResponse;
    const seal = async (plain: Uint8Array, salt: string) =>
      sealRange(await fileKeyOf(transferKey, salt), plain.length, 0, plain);
    await uploadAll(
      app,
      t,
      new Map([
        ['album/photo.jpg', await seal(photo, photoParams.salt)],
        ['album/clip.mp4', await seal(video, videoParams.salt)],
      ]),
    );
    const done = await completeTransfer(app, t);
    expect(done.status, done.text).toBe(200);
    link = `${APP_ORIGIN}/w/${t.id}#${keyFragment(transferKey)}`;
  }, 120_000);

  it('downloads and decrypts every file SHA-256 equal, verified against the manifest; no request carries the key', async () => {
    const out = path.join(work, 'got-link');
    seen.length = 0;
    const run = await cliHere(['get', link, '-o', out, '--json']);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(sha256(readFileSync(path.join(out, 'album', 'photo.jpg')))).toBe(sha256(photo));
    expect(sha256(readFileSync(path.join(out, 'album', 'clip.mp4')))).toBe(sha256(video));
    expect(filesUnder(out)).toEqual(['album/clip.mp4', 'album/photo.jpg']);
    const report = JSON.parse(run.stdout.trim()) as { files: { path: string; verified: string; size: number }[] };
    expect(report.files.map((f) => f.size).sort((a, b) => a - b)).toEqual([photo.length, video.length]);
    for (const f of report.files) expect(['verified', 'unverified']).toContain(f.verified);
    const k = toBase64url(transferKey);
    expectNoRequestCarries([k], [transferKey]);
    expect(run.stdout + run.stderr).not.toContain(k);
  });

  it('without the fragment: says the whole link is needed; with another key: refused before any download', async () => {
    const bare = await cliHere(['get', t.id, '-o', path.join(work, 'bare')]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('#k=');
    const other = await cliHere([
      'get',
      `${APP_ORIGIN}/w/${t.id}#${keyFragment(newTransferKey())}`,
      '-o',
      path.join(work, 'other'),
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('does not open the transfer');
    expect(filesUnder(path.join(work, 'other'))).toEqual([]);
  });

  it('--zip is refused with a clear message (the server cannot zip what it cannot read)', async () => {
    const zip = await cliHere(['get', link, '--zip', '-o', path.join(work, 'zip')]);
    expect(zip.code).toBe(1);
    expect(zip.stderr).toContain('end-to-end encrypted');
    expect(zip.stderr).toContain('without --zip');
  });

  it('a byte flipped in the stored object: fails with the tamper message, exit 5, and leaves no file', async () => {
    const clip = t.files.find((f) => f.fileName === 'clip.mp4')!;
    const stored = await storedObject(t.id, clip.fileId);
    stored.bytes[7 * MiB + 99] = (stored.bytes[7 * MiB + 99] ?? 0) ^ 0x01;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: stored.key, Body: stored.bytes }));
    const out = path.join(work, 'got-tampered');
    const run = await cliHere(['get', link, '-o', out]);
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toContain('This file was changed after it was sent: album/clip.mp4');
    // nothing of the changed file, whole or partial
    expect(filesUnder(out).filter((f) => f.includes('clip'))).toEqual([]);
  });
});

describe('an interrupted sendbridge send --e2e', () => {
  it('resumes with the same key and salts (kept 0600 in the checkpoint) and the result opens', async () => {
    const data = randomData(MULTIPART_THRESHOLD_BYTES + 1234);
    writeFileSync(path.join(work, 'resume.bin'), data);
    const args = ['send', 'resume.bin', '--link', '--e2e', '--parallel', '1', '--json'];
    let interrupted = false;
    const first = await cliChild(args, {
      env: { SENDBRIDGE_API_KEY: apiKey },
      onEvent: (e, child) => {
        if (e.event === 'part' && !interrupted) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(first.code, first.stderr + first.stdout).toBe(130);
    const id = first.events.find((e) => e.event === 'created')!.id as string;
    const checkpoints = path.join(configDir, 'uploads.json');
    expect(statSync(checkpoints).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(checkpoints, 'utf8')) as {
      checkpoints: Record<string, { transferId: string; e2e?: { key: string } }>;
    };
    const cp = Object.values(saved.checkpoints).find((c) => c.transferId === id)!;
    expect(cp.e2e?.key).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    const state = await api(app, `/v1/transfers/${id}/upload-state`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const before = (state.json as UploadStateResponse).files[0]!;
    expect(before.partsDone.length).toBeGreaterThanOrEqual(1);
    expect(before.partsDone.length).toBeLessThan(before.partCount!);

    const second = await cliChild(args, { env: { SENDBRIDGE_API_KEY: apiKey } });
    expect(second.code, second.stderr + second.stdout).toBe(0);
    expect(second.events.find((e) => e.event === 'created')).toBeUndefined();
    expect(second.events.find((e) => e.event === 'resumed')).toMatchObject({ id });
    const done = second.events.at(-1)!;
    expect(done).toMatchObject({ event: 'done', id, e2e: 'link' });
    const transferKey = keyFromFragment(new URL(done.link as string).hash)!;
    expect(toBase64url(transferKey)).toBe(cp.e2e!.key);
    // the finished send forgets the key
    expect(readFileSync(checkpoints, 'utf8')).not.toContain(cp.e2e!.key);

    const view = (await api(app, '/getDownload', json({ id }))).json as DownloadView;
    const f = view.files[0]!;
    const fileLink = await api(app, '/getDownload/file', json({ id, fileId: f.fileId }));
    const got = await fetchBytes(fileLink.json.url as string);
    expect(got.bytes.length).toBe(cipherSizeOf(data.length));
    expect(sha256(await openAsBrowser(fileLink.json.url as string, transferKey, f.e2e!.salt, data.length))).toBe(
      sha256(data),
    );
  }, 240_000);
});
