/**
 * `sendbridge send` of a 1 GiB file (the built CLI as a child process, through the
 * whole local stack: API key, create, sign, record parts, complete) vs `@aws-sdk/lib-storage`
 * Upload of the same file straight to the same s3rver bucket, with the same part size
 * (partSizeFor) and parallelism (4), alternating rounds in one run. Goal: ratio >= 1.0.
 * Not part of `npm test` (npm run bench -- cli-upload). CLI_BENCH_MIB shortens it for a try.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { localS3Client } from '../local/s3';
import { createSignedInUser } from '../local/users';
import { ENV } from '../../functions/lib/env-names';
import { parallelismForTry, partCountFor, partSizeFor } from '../../functions/domain/upload';
import { MiB, writeTempFile, type Round } from './cli-files';
import { median } from './machine';

const BIN = path.join(REPO_ROOT, 'packages', 'cli', 'bin', 'sendbridge.mjs');

async function cliRound(
  app: LocalApp,
  key: string,
  configDir: string,
  file: string,
  size: number,
  parallelism: number,
): Promise<Round> {
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'send',
          file,
          '--link',
          '--expiry',
          '1w',
          '--parallel',
          String(parallelism),
          '--json',
          '--api',
          app.apiOrigin,
        ],
        {
          env: { PATH: process.env.PATH ?? '', SENDBRIDGE_API_KEY: key, SENDBRIDGE_CONFIG_DIR: configDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`sendbridge send exited ${code}: ${stderr}${stdout.slice(-2000)}`);
  const done = JSON.parse(stdout.trim().split('\n').at(-1)!) as { event: string; id: string };
  if (done.event !== 'done') throw new Error(`unexpected last event ${JSON.stringify(done)}`);
  // the transfer's size as stored, then delete it (storage and quota back)
  const read = await fetch(`${app.apiOrigin}/api/v1/transfers/${done.id}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const detail = (await read.json()) as { files: { size: number }[] };
  if (detail.files[0]?.size !== size) throw new Error(`stored ${detail.files[0]?.size} bytes, expected ${size}`);
  await fetch(`${app.apiOrigin}/api/v1/transfers/${done.id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${key}` },
  });
  return { seconds, mibPerSecond: size / MiB / seconds };
}

async function sdkRound(
  s3: S3Client,
  Bucket: string,
  file: string,
  size: number,
  Key: string,
  queueSize: number,
): Promise<Round> {
  const started = performance.now();
  await new Upload({
    client: s3,
    params: { Bucket, Key, Body: createReadStream(file, { highWaterMark: MiB }) },
    partSize: partSizeFor(size),
    queueSize,
    leavePartsOnError: false,
  }).done();
  const seconds = (performance.now() - started) / 1000;
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key }));
  if (head.ContentLength !== size) throw new Error(`${Key}: stored ${head.ContentLength} bytes, expected ${size}`);
  await s3.send(new DeleteObjectCommand({ Bucket, Key }));
  return { seconds, mibPerSecond: size / MiB / seconds };
}

export async function benchCliUpload(
  app: LocalApp,
  opts = { rounds: 3, fileBytes: Number(process.env.CLI_BENCH_MIB ?? 1024) * MiB, warmUpBytes: 32 * MiB },
) {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'packages', 'cli', 'build.mjs')], { stdio: 'pipe' });
  const buckets = JSON.parse(app.stack.env[ENV.regionBuckets]!) as Record<string, { bucket: string }>;
  const Bucket = buckets[app.stack.env[ENV.defaultRegion]!]!.bucket;
  const s3 = localS3Client(app.stack.urls.s3);
  const parallelism = parallelismForTry(1);
  const user = await createSignedInUser(app, 'bench.cli@example.com', { role: 'business' });
  const made = await fetch(`${app.apiOrigin}/api/me/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.accessToken}` },
    body: JSON.stringify({ name: 'bench', scopes: ['send', 'transfers:read'] }),
  });
  if (made.status !== 201) throw new Error(`key: ${made.status} ${await made.text()}`);
  const { key } = (await made.json()) as { key: string };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-bench-cli-'));
  try {
    const configDir = path.join(dir, 'config');
    const file = writeTempFile(dir, 'payload.bin', opts.fileBytes);
    const warm = writeTempFile(dir, 'warm.bin', opts.warmUpBytes);
    await cliRound(app, key, configDir, warm, opts.warmUpBytes, parallelism);
    await sdkRound(s3, Bucket, warm, opts.warmUpBytes, 'bench/cli-warm-sdk', parallelism);
    const cli: Round[] = [];
    const sdk: Round[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      cli.push(await cliRound(app, key, configDir, file, opts.fileBytes, parallelism));
      console.log(`  sendbridge send round ${i + 1}: ${cli.at(-1)!.mibPerSecond.toFixed(1)} MiB/s`);
      sdk.push(await sdkRound(s3, Bucket, file, opts.fileBytes, `bench/cli-sdk-${i}`, parallelism));
      console.log(`  lib-storage round ${i + 1}: ${sdk.at(-1)!.mibPerSecond.toFixed(1)} MiB/s`);
    }
    const med = (rs: Round[]) => ({
      mibPerSecond: median(rs.map((r) => r.mibPerSecond)),
      seconds: median(rs.map((r) => r.seconds)),
    });
    const c = med(cli);
    const s = med(sdk);
    const ratio = c.mibPerSecond / s.mibPerSecond;
    return {
      name: 'cli-upload',
      description:
        'sendbridge send of one file (built CLI as a child process, whole local stack: key, create, sign, record parts, complete) vs @aws-sdk/lib-storage Upload straight to the same bucket, same part size and parallelism, alternating rounds, medians; goal ratio >= 1.0',
      parameters: {
        ...opts,
        partSize: partSizeFor(opts.fileBytes),
        partCount: partCountFor(opts.fileBytes),
        parallelism,
        target: 's3rver (local stack)',
      },
      results: { cli, libStorage: sdk },
      summary: { cli: c, libStorage: s, ratio, goal: 1.0, met: ratio >= 1.0 },
    };
  } finally {
    s3.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
