/**
 * the `sendbridge` CLI, built with esbuild and run as a child process against the
 * real local stack. It sends a folder of 3 files (one multipart) to a recipient, is
 * interrupted with SIGINT once a part has been recorded, resumes with the same command
 * (uploading only the parts the server does not have), and the recipient downloads every file
 * with sha256 equal; `sendbridge get` fetches it back, files and ZIP, with equal bytes. Also:
 * login stores the key 0600 and never prints it, exit codes for a bad key and a missing
 * transfer, ls and request create.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cpSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  existsSync,
  utimesSync,
} from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import yauzl from 'yauzl';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateApiKeyResponse } from '../../functions/domain/api-keys';
import type { UploadStateResponse } from '../../functions/domain/transfer-api';
import { MULTIPART_THRESHOLD_BYTES } from '../../functions/domain/upload';
import { formatBytes } from '../../functions/domain/format';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  createUser,
  fetchBytes,
  fileRecordOf,
  json,
  randomData,
  sendFiles,
  sha256,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';
import { startDownloadProxy, type DownloadProxy } from '../helpers/download-proxy';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import { CLI_DIR, buildCli, runCli, type CliRun, type RunOptions } from '../helpers/cli-runner';

let app: LocalApp;
let alice: TestUser;
let key: string;
let work: string;
let configDir: string;

/** Runs the CLI in `work` with its config in `configDir` (test/helpers/cli-runner.ts). */
const cli = (args: string[], opts: RunOptions = {}): Promise<CliRun> =>
  runCli(args, { cwd: work, home: work, configDir }, opts);

function unzip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  // the bundle the binary runs, built from the current sources
  buildCli();
  app = await startTestApp();
  alice = await createUser(app, 'alice.cli@example.com');
  const made = await api(
    app,
    '/me/api-keys',
    json({ name: 'cli', scopes: ['send', 'transfers:read', 'requests'] }, bearer(alice)),
  );
  expect(made.status, made.text).toBe(201);
  key = (made.json as CreateApiKeyResponse).key;
  work = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-cli-e2e-'));
  configDir = path.join(work, 'config');
});

afterAll(async () => {
  await app?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('sendbridge CLI on the local stack', () => {
  it('login checks the key, stores it 0600 and never prints it; a bad key exits 2', async () => {
    const bad = await cli(['login', '--key', `${key.slice(0, -4)}AAAA`, '--api', app.apiOrigin]);
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr + bad.stdout).not.toContain(key.slice(-12));
    expect(existsSync(path.join(configDir, 'config.json'))).toBe(false);

    const ok = await cli(['login', '--api', app.apiOrigin], { env: { SENDBRIDGE_API_KEY: key } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain(key);
    const file = path.join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ api: app.apiOrigin, key });
  });

  it('sends a folder of 3 files, is interrupted after a part, resumes with the same command; the recipient gets equal bytes; get fetches it back', async () => {
    const folder = path.join(work, 'project');
    mkdirSync(path.join(folder, 'sub'), { recursive: true });
    const contents = new Map<string, Buffer>([
      ['project/a.txt', randomData(1500)],
      ['project/big.bin', randomData(MULTIPART_THRESHOLD_BYTES + 4321)],
      ['project/sub/b.bin', randomData(300_000)],
    ]);
    for (const [rel, data] of contents) writeFileSync(path.join(work, rel), data);
    const recipient = 'carol.cli@example.com';
    // one request in flight, so the interrupt lands while most parts are still to do
    const args = [
      'send',
      'project',
      '--to',
      recipient,
      '--message',
      'From the terminal',
      '--expiry',
      '1w',
      '--parallel',
      '1',
      '--json',
    ];

    let interrupted = false;
    const first = await cli(args, {
      onEvent: (e, child) => {
        if (e.event === 'part' && !interrupted) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(first.code, first.stderr + first.stdout).toBe(130);
    const created = first.events.find((e) => e.event === 'created')!;
    expect(created).toMatchObject({ files: 3 });
    const id = created.id as string;
    expect(first.events.at(-1)).toMatchObject({ event: 'interrupted', id });

    const state = await api(app, `/v1/transfers/${id}/upload-state`, { headers: { authorization: `Bearer ${key}` } });
    const big = (state.json as UploadStateResponse).files.find((f) => f.fileName === 'big.bin')!;
    expect(state.json.status).toBe('uploading');
    expect(big.partCount).toBeGreaterThanOrEqual(10);
    expect(big.partsDone.length).toBeGreaterThanOrEqual(1);
    expect(big.partsDone.length).toBeLessThan(big.partCount!);
    const doneBefore = big.partsDone.length;

    const second = await cli(args);
    expect(second.code, second.stderr + second.stdout).toBe(0);
    expect(second.events.find((e) => e.event === 'created')).toBeUndefined();
    expect(second.events.find((e) => e.event === 'resumed')).toMatchObject({ id, partsDone: doneBefore });
    // only the parts the server lacked went up again
    expect(second.events.filter((e) => e.event === 'part')).toHaveLength(big.partCount! - doneBefore);
    const done = second.events.at(-1)!;
    expect(done).toMatchObject({ event: 'done', id, recipients: [recipient] });
    expect(JSON.stringify(second.events)).not.toContain(key);

    // the recipient's mail and download: sha256 equal
    await waitForMail(app, recipient, new RegExp(id));
    const view = await api(app, '/getDownload', json({ id }));
    expect(view.status, view.text).toBe(200);
    const files = view.json.files as { fileId: string; fileName: string; itemPath?: string; size: number }[];
    expect(files.map((f) => f.itemPath).sort()).toEqual([...contents.keys()].sort());
    for (const f of files) {
      const link = await api(app, '/getDownload/file', json({ id, fileId: f.fileId }));
      expect(link.status, link.text).toBe(200);
      const got = await fetchBytes(link.json.url as string);
      expect(sha256(got.bytes), f.itemPath).toBe(sha256(contents.get(f.itemPath!)!));
      // the engine's CRC-32s: the multipart file's parts, sent across both runs, joined by the server
      expect((await fileRecordOf(app, id, f.fileId))?.crc32, f.itemPath).toBe(zlib.crc32(contents.get(f.itemPath!)!));
    }

    // `get` fetches it back by its link, every file and then the ZIP
    const out = path.join(work, 'received');
    const got = await cli(['get', done.link as string, '-o', out, '--json']);
    expect(got.code, got.stderr + got.stdout).toBe(0);
    for (const [rel, data] of contents) expect(sha256(readFileSync(path.join(out, rel))), rel).toBe(sha256(data));
    expect(got.stderr, 'no progress with --json').toBe('');
    // without --json: the files on stdout, progress on stderr ending at 100 % of the bytes
    const plain = await cli(['get', id, '-o', path.join(work, 'plain')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout.trim().split('\n')).toHaveLength(contents.size);
    const total = [...contents.values()].reduce((sum, d) => sum + d.length, 0);
    expect(plain.stderr).toMatch(
      new RegExp(`100%  ${formatBytes(total).replace('.', '\\.')} / ${formatBytes(total).replace('.', '\\.')}`, 'u'),
    );

    const zipped = await cli(['get', id, '--zip', '-o', out, '--json']);
    expect(zipped.code, zipped.stderr + zipped.stdout).toBe(0);
    const entries = await unzip(zipped.events.at(-1)!.zip as string);
    for (const [rel, data] of contents) expect(sha256(entries.get(rel)!), `zip ${rel}`).toBe(sha256(data));

    const listed = await cli(['ls', '--json']);
    expect(listed.code).toBe(0);
    expect((listed.events[0]!.allDocs as { slug: string }[]).map((t) => t.slug)).toContain(id);
  }, 300_000);

  it('rebuilds its bundle when a source file it was made from is newer (a checkout after git pull), not otherwise', async () => {
    // A copy of the package beside it (same depth: the bundle's recorded inputs name the same
    // sources), since walkthrough.test.ts builds and runs the package's own bundle meanwhile.
    const copy = mkdtempSync(path.join(CLI_DIR, '..', '.cli-rebuild-'));
    try {
      cpSync(CLI_DIR, copy, { recursive: true });
      const bin = path.join(copy, 'bin', 'sendbridge.mjs');
      const dist = path.join(copy, 'dist', 'sendbridge.mjs');
      const past = new Date(Date.now() - 3600_000);
      utimesSync(dist, past, past);
      expect((await cli(['--version'], { bin })).code).toBe(0);
      const rebuilt = statSync(dist).mtimeMs;
      expect(rebuilt).toBeGreaterThan(past.getTime() + 60_000);
      expect((await cli(['--version'], { bin })).code).toBe(0);
      expect(statSync(dist).mtimeMs).toBe(rebuilt);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('exit codes: 3 for a transfer that does not exist, 1 for bad usage, 2 without a key; request create prints the link', async () => {
    const missing = await cli(['get', 'Zz9Zz9Z', '-o', path.join(work, 'none')]);
    expect(missing.code, missing.stderr).toBe(3);
    expect((await cli(['send', 'project'])).code).toBe(1);
    expect((await cli(['send', 'project', '--link', '--expiry', 'soon'])).code).toBe(1);
    const plain = await cli(['ls', '--api', 'http://sendbridge.example']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('refusing plain http');

    const req = await cli(['request', 'create', '--title', 'Scans please', '--message', 'thanks']);
    expect(req.code, req.stderr).toBe(0);
    expect(req.stdout).toMatch(/\/r\/[A-Za-z0-9]{8}/u);

    expect((await cli(['logout'])).code).toBe(0);
    expect(existsSync(path.join(configDir, 'config.json'))).toBe(false);
    const noKey = await cli(['ls', '--api', app.apiOrigin]);
    expect(noKey.code).toBe(2);
  });
});

describe('sendbridge get resumes and verifies', () => {
  const big = randomData(3 * 1024 * 1024 + 777);
  const small = randomData(40_000);
  let id: string;
  let bigKey: string;
  let bigId: string;
  let smallId: string;
  let proxy: DownloadProxy;

  beforeAll(async () => {
    const t = await sendFiles(
      app,
      alice,
      new Map([
        ['video/big.bin', big],
        ['notes.txt', small],
      ]),
    );
    id = t.id;
    bigId = t.files[0]!.fileId;
    smallId = t.files[1]!.fileId;
    bigKey = (await fileRecordOf(app, id, bigId))!.key;
    // the digests, started as each file completed
    await app.gateway.idle();
    proxy = await startDownloadProxy(app.apiOrigin, app.stack.urls.s3);
  });

  afterAll(async () => {
    await proxy?.close();
  });

  const viaProxy = (args: string[]) => cli([...args, '--json'], { env: { SENDBRIDGE_API: proxy.origin } });

  it('goes on with a Range and If-Range request after the connection is cut half way, and ends with the right bytes, verified', async () => {
    proxy.cutOnce(bigKey);
    const out = path.join(work, 'resumed');
    const run = await viaProxy(['get', id, '-o', out]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(sha256(readFileSync(path.join(out, 'video', 'big.bin')))).toBe(sha256(big));
    expect(sha256(readFileSync(path.join(out, 'notes.txt')))).toBe(sha256(small));
    expect(existsSync(path.join(out, 'video', 'big.bin.part'))).toBe(false);
    const gets = proxy.seen.filter((s) => s.path.includes(bigKey));
    expect(gets[0]).toMatchObject({ status: 200 });
    expect(gets[0]!.range).toBeUndefined();
    const resumed = gets.find((s) => s.range);
    expect(resumed?.status).toBe(206);
    const from = Number(/^bytes=(\d+)-$/u.exec(resumed!.range!)![1]);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThan(big.length);
    expect(resumed!.ifRange).toMatch(/^".+"$/u);
    const files = run.events.at(-1)!.files as { path: string; verified: string }[];
    expect(files.map((f) => f.verified)).toEqual(['verified', 'verified']);
  });

  it('asks for a fresh link when the presigned URL has expired, and downloads the file with it', async () => {
    proxy.expireOnce(bigKey);
    const before = proxy.apiCalls.length;
    const out = path.join(work, 'renewed');
    const run = await viaProxy(['get', id, '-o', out]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(sha256(readFileSync(path.join(out, 'video', 'big.bin')))).toBe(sha256(big));
    const gets = proxy.seen.filter((s) => s.path.includes(bigKey)).slice(-2);
    expect(gets.map((s) => s.status)).toEqual([403, 200]);
    // two links for the expired file, one for the other
    expect(proxy.apiCalls.slice(before).filter((p) => p === '/api/getDownload/file')).toHaveLength(3);
  });

  it('fails with checksum_mismatch and a non-zero exit when a byte arrives changed', async () => {
    proxy.corrupt(bigKey, 1_000_000);
    const out = path.join(work, 'corrupted');
    const run = await viaProxy(['get', id, '-o', out]);
    expect(run.code).not.toBe(0);
    const listed = run.events.find((e) => Array.isArray(e.files))!.files as { path: string; verified: string }[];
    expect(Object.fromEntries(listed.map((f) => [path.relative(out, f.path), f.verified]))).toEqual({
      [path.join('video', 'big.bin')]: 'mismatch',
      'notes.txt': 'verified',
    });
    expect(run.events.at(-1)!.error).toMatchObject({ code: 'checksum_mismatch' });
    expect(run.events.at(-1)!.error.message).toContain('big.bin');
  });

  it('--zip: checks every entry of the ZIP against the manifest, and a changed byte fails with checksum_mismatch', async () => {
    const good = await viaProxy(['get', id, '--zip', '-o', path.join(work, 'zipped')]);
    expect(good.code, good.stderr + good.stdout).toBe(0);
    const done = good.events.at(-1)!;
    expect(
      Object.fromEntries((done.files as { path: string; verified: string }[]).map((f) => [f.path, f.verified])),
    ).toEqual({ 'video/big.bin': 'verified', 'notes.txt': 'verified' });
    const zipGet = proxy.seen.findLast((s) => s.path.endsWith('.zip'))!;
    expect(zipGet).toBeDefined();
    // a byte well inside big.bin's stored data (the first entry: one local header before it)
    proxy.corrupt(zipGet.path, 1_000_000);
    const bad = await viaProxy(['get', id, '--zip', '-o', path.join(work, 'zipped-bad')]);
    expect(bad.code).toBe(5);
    expect(bad.events.at(-1)!.error).toMatchObject({ code: 'checksum_mismatch' });
    expect(bad.events.at(-1)!.error.message).toContain('video/big.bin');
  });

  it('reports a file whose digest is not computed yet as unverified, not failed', async () => {
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transferFile(id, smallId),
        UpdateExpression: 'REMOVE sha256',
      }),
    );
    const out = path.join(work, 'unverified');
    const run = await cli(['get', id, '-o', out, '--json'], { env: { SENDBRIDGE_API: app.apiOrigin } });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const files = run.events.at(-1)!.files as { path: string; verified: string }[];
    expect(Object.fromEntries(files.map((f) => [path.relative(out, f.path), f.verified]))).toEqual({
      [path.join('video', 'big.bin')]: 'verified',
      'notes.txt': 'unverified',
    });
  });
});
