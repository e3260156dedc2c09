/**
 * `npm run bench -- digest`: the digest job's SHA-256 rate (docs/decisions/0073). Three numbers,
 * alternating rounds, medians: hash-wasm's SHA-256 over bytes in memory (the CPU the job pays
 * for), node:crypto's beside it (what the job would run at if Node's hash could save its state),
 * and the job's own read path: the object streamed from the local S3 (s3rver) by
 * `readObjectFrom` into hash-wasm, beside the same stream read without hashing.
 * DIGEST_BENCH_MIB (default 512) sizes the object, DIGEST_BENCH_ROUNDS (default 3) the rounds.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createSHA256 } from 'hash-wasm';
import { readObjectFrom } from '../../functions/adapters/storage';
import { DEFAULT_REGION } from '../../functions/domain/regions';
import { MiB } from '../../functions/domain/units';
import type { LocalApp } from '../local/app';
import { localS3Client } from '../local/s3';
import { localBucketNames } from '../local/stack';
import { median } from './machine';

const KEY = 'bench/digest-source.bin';
/** what one update() gets in memory: the size of the chunks S3's stream hands the job is similar */
const CHUNK = 64 * 1024;

function* blocks(seed: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < size; at += seed.length) yield seed.subarray(0, Math.min(seed.length, size - at));
}

const rate = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

async function inMemory(kind: 'hash-wasm' | 'node', data: Buffer): Promise<number> {
  const started = performance.now();
  if (kind === 'node') {
    const h = createHash('sha256');
    for (let i = 0; i < data.length; i += CHUNK) h.update(data.subarray(i, i + CHUNK));
    h.digest('hex');
  } else {
    const h = await createSHA256();
    h.init();
    for (let i = 0; i < data.length; i += CHUNK) h.update(data.subarray(i, i + CHUNK));
    h.digest('hex');
  }
  return rate(data.length, performance.now() - started);
}

async function fromS3(hash: boolean, size: number): Promise<{ mibPerS: number; sha256?: string }> {
  const started = performance.now();
  const { body } = await readObjectFrom({ regionId: DEFAULT_REGION, anon: false, key: KEY }, 0);
  const h = hash ? await createSHA256() : undefined;
  h?.init();
  let got = 0;
  for await (const chunk of body) {
    h?.update(chunk as Uint8Array);
    got += (chunk as Uint8Array).byteLength;
  }
  if (got !== size) throw new Error(`read ${got} of ${size} bytes`);
  const mibPerS = rate(size, performance.now() - started);
  return h ? { mibPerS, sha256: h.digest('hex') } : { mibPerS };
}

export async function benchDigest(app: LocalApp) {
  const size = (Number(process.env.DIGEST_BENCH_MIB) || 512) * MiB;
  const rounds = Number(process.env.DIGEST_BENCH_ROUNDS) || 3;
  const seed = randomBytes(16 * MiB);
  const memory = Buffer.concat([...blocks(seed, Math.min(size, 256 * MiB))]);
  const s3 = localS3Client(app.stack.urls.s3);
  const Bucket = localBucketNames(DEFAULT_REGION).bucket;
  await new Upload({
    client: s3,
    params: {
      Bucket,
      Key: KEY,
      Body: Readable.from(blocks(seed, size)),
    },
    partSize: 16 * MiB,
  }).done();
  const runs = { hashWasm: [] as number[], node: [] as number[], s3Hashed: [] as number[], s3Plain: [] as number[] };
  try {
    for (let r = 0; r < rounds; r += 1) {
      runs.hashWasm.push(await inMemory('hash-wasm', memory));
      runs.node.push(await inMemory('node', memory));
      runs.s3Hashed.push((await fromS3(true, size)).mibPerS);
      runs.s3Plain.push((await fromS3(false, size)).mibPerS);
    }
  } finally {
    await s3.send(new DeleteObjectCommand({ Bucket, Key: KEY })).catch(() => undefined);
    s3.destroy();
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    options: { objectMiB: size / MiB, inMemoryMiB: memory.length / MiB, rounds, chunkBytes: CHUNK },
    runs,
    summary: {
      hashWasmInMemoryMiBps: round(median(runs.hashWasm)),
      nodeCryptoInMemoryMiBps: round(median(runs.node)),
      s3rverStreamHashedMiBps: round(median(runs.s3Hashed)),
      s3rverStreamPlainMiBps: round(median(runs.s3Plain)),
    },
  };
}
