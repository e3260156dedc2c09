/**
 * End-to-end encrypted vs plain transfers through the CLI (`npm run bench -- e2e`): the same
 * 1 GiB file sent with `sendbridge send --link` and `sendbridge send --link --e2e`, and each
 * transfer fetched back with `sendbridge get` (the encrypted one decrypted while it streams to
 * disk), the built CLI as a child process against the same local stack, plain and encrypted
 * rounds alternating (which goes first alternates too), medians. Goal: encrypted >= 0.8 of plain
 * for upload and for download. E2E_BENCH_MIB shortens it for a try.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { createSignedInUser } from '../local/users';
import { cipherSizeOf, sealedPartSize } from '../../functions/domain/e2e-params';
import { parallelismForTry, partCountFor, partSizeFor } from '../../functions/domain/upload';
import { MiB, writeTempFile, type Round } from './cli-files';
import { median } from './machine';

const BIN = path.join(REPO_ROOT, 'packages', 'cli', 'bin', 'sendbridge.mjs');
const GOAL = 0.8;

type Side = 'plain' | 'e2e';

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
  });
}

interface Sent extends Round {
  id: string;
  link: string;
}

async function sendRound(
  app: LocalApp,
  env: Record<string, string>,
  file: string,
  size: number,
  side: Side,
): Promise<Sent> {
  const args = ['send', file, '--link', '--expiry', '1w', '--json', '--api', app.apiOrigin];
  if (side === 'e2e') args.push('--e2e');
  const started = performance.now();
  const { code, stdout, stderr } = await runCli(args, env);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`send (${side}) exited ${code}: ${stderr}${stdout.slice(-2000)}`);
  const done = JSON.parse(stdout.trim().split('\n').at(-1)!) as { event: string; id: string; link: string };
  if (done.event !== 'done') throw new Error(`unexpected last event ${JSON.stringify(done)}`);
  return { id: done.id, link: done.link, seconds, mibPerSecond: size / MiB / seconds };
}

/** Waits (untimed) until the transfer's file is served: a plain upload is malware scanned first. */
async function whenDownloadable(app: LocalApp, id: string): Promise<void> {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    const view = await fetch(`${app.apiOrigin}/api/getDownload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    const body = (await view.json()) as { files?: { fileId: string }[] };
    const fileId = body.files?.[0]?.fileId;
    if (fileId) {
      const res = await fetch(`${app.apiOrigin}/api/getDownload/file`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id, fileId }),
      });
      const text = await res.text();
      if (res.ok) return;
      if (!text.includes('scan_pending')) throw new Error(`getDownload/file: ${res.status} ${text}`);
    }
    if (Date.now() > deadline) throw new Error(`transfer ${id} still not downloadable`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function getRound(
  app: LocalApp,
  env: Record<string, string>,
  sent: Sent,
  size: number,
  dir: string,
): Promise<Round> {
  const out = mkdtempSync(path.join(dir, 'got-'));
  try {
    const started = performance.now();
    const { code, stdout, stderr } = await runCli(['get', sent.link, '-o', out, '--json', '--api', app.apiOrigin], env);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`get exited ${code}: ${stderr}${stdout.slice(-2000)}`);
    const report = JSON.parse(stdout.trim()) as { files: { path: string }[] };
    const got = statSync(report.files[0]!.path).size;
    if (got !== size) throw new Error(`get wrote ${got} bytes, expected ${size}`);
    return { seconds, mibPerSecond: size / MiB / seconds };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function deleteTransfer(app: LocalApp, key: string, id: string): Promise<void> {
  await fetch(`${app.apiOrigin}/api/v1/transfers/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${key}` },
  });
}

export async function benchE2e(
  app: LocalApp,
  opts = { rounds: 3, fileBytes: Number(process.env.E2E_BENCH_MIB ?? 1024) * MiB, warmUpBytes: 32 * MiB },
) {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'packages', 'cli', 'build.mjs')], { stdio: 'pipe' });
  const user = await createSignedInUser(app, 'bench.e2e@example.com', { role: 'business' });
  const made = await fetch(`${app.apiOrigin}/api/me/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    body: JSON.stringify({ name: 'bench', scopes: ['send', 'transfers:read'] }),
  });
  if (made.status !== 201) throw new Error(`key: ${made.status} ${await made.text()}`);
  const { key } = (await made.json()) as { key: string };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-bench-e2e-'));
  const env = { SENDBRIDGE_API_KEY: key, SENDBRIDGE_CONFIG_DIR: path.join(dir, 'config') };
  try {
    const file = writeTempFile(dir, 'payload.bin', opts.fileBytes);
    const warm = writeTempFile(dir, 'warm.bin', opts.warmUpBytes);
    for (const side of ['plain', 'e2e'] as const) {
      const sent = await sendRound(app, env, warm, opts.warmUpBytes, side);
      await whenDownloadable(app, sent.id);
      await getRound(app, env, sent, opts.warmUpBytes, dir);
      await deleteTransfer(app, key, sent.id);
    }
    const up: Record<Side, Round[]> = { plain: [], e2e: [] };
    const down: Record<Side, Round[]> = { plain: [], e2e: [] };
    for (let i = 0; i < opts.rounds; i++) {
      const order: Side[] = i % 2 === 0 ? ['plain', 'e2e'] : ['e2e', 'plain'];
      const sent = {} as Record<Side, Sent>;
      for (const side of order) {
        sent[side] = await sendRound(app, env, file, opts.fileBytes, side);
        up[side].push({ seconds: sent[side].seconds, mibPerSecond: sent[side].mibPerSecond });
        console.log(`  round ${i + 1} send ${side}: ${sent[side].mibPerSecond.toFixed(1)} MiB/s`);
      }
      for (const side of order) await whenDownloadable(app, sent[side].id);
      for (const side of order) {
        down[side].push(await getRound(app, env, sent[side], opts.fileBytes, dir));
        console.log(`  round ${i + 1} get ${side}: ${down[side].at(-1)!.mibPerSecond.toFixed(1)} MiB/s`);
      }
      for (const side of order) await deleteTransfer(app, key, sent[side].id);
    }
    const med = (rs: Round[]) => ({
      mibPerSecond: median(rs.map((r) => r.mibPerSecond)),
      seconds: median(rs.map((r) => r.seconds)),
    });
    const upload = { plain: med(up.plain), e2e: med(up.e2e) };
    const download = { plain: med(down.plain), e2e: med(down.e2e) };
    const uploadRatio = upload.e2e.mibPerSecond / upload.plain.mibPerSecond;
    const downloadRatio = download.e2e.mibPerSecond / download.plain.mibPerSecond;
    return {
      name: 'e2e',
      description:
        'sendbridge send --link vs send --link --e2e of one file, then sendbridge get of each (decrypting while streaming to disk for the encrypted one); built CLI as a child process, same local stack, alternating rounds (order alternates), medians of MiB of plaintext per second end to end; goal encrypted >= 0.8 of plain',
      parameters: {
        ...opts,
        plainPartSize: partSizeFor(opts.fileBytes),
        sealedPartSize: sealedPartSize(partSizeFor(opts.fileBytes)),
        partCount: partCountFor(opts.fileBytes),
        storedBytes: { plain: opts.fileBytes, e2e: cipherSizeOf(opts.fileBytes) },
        parallelism: parallelismForTry(1),
        target: 's3rver (local stack)',
      },
      results: { upload: up, download: down },
      summary: {
        upload: { ...upload, ratio: uploadRatio, met: uploadRatio >= GOAL },
        download: { ...download, ratio: downloadRatio, met: downloadRatio >= GOAL },
        goal: GOAL,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
