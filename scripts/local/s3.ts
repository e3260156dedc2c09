import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { appCorsXml } from '../../functions/domain/bucket-cors';
import { createS3, type S3 } from '../../functions/lib/aws/s3';
import { SPEED_TEST_BYTES, SPEED_TEST_KEY } from '../../functions/domain/regions';
import { startChild, type Child } from './child';

const childScript = fileURLToPath(new URL('./s3rver-child.ts', import.meta.url));

export async function startS3(opts: { port: number; dataDir: string; buckets: string[]; corsOrigins: string[] }): Promise<Child> {
  mkdirSync(opts.dataDir, { recursive: true });
  const config = { port: opts.port, directory: opts.dataDir, buckets: opts.buckets, corsXml: appCorsXml(opts.corsOrigins) };
  return startChild('s3rver', process.execPath, ['--openssl-legacy-provider', '--import', 'tsx', childScript], {
    env: { ...process.env, S3RVER_CONFIG: JSON.stringify(config) },
    ready: /S3RVER READY/,
    timeoutMs: 30_000,
  });
}

export function localS3Client(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The functions' own S3 layer (functions/lib/aws/s3.ts) on the emulator, with its key pair. */
export function localFunctionsS3(endpoint: string): S3 {
  return createS3({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
}

/** Puts the 128 KB speed-test object into each transfers bucket unless it is already there. */
export async function ensureSpeedTestObjects(endpoint: string, buckets: string[]): Promise<void> {
  const client = localS3Client(endpoint);
  const body = Buffer.alloc(SPEED_TEST_BYTES, 0x61);
  await Promise.all(
    buckets.map(async (Bucket) => {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: SPEED_TEST_KEY }));
        if (head.ContentLength === SPEED_TEST_BYTES) return;
      } catch {
        // missing: write it below
      }
      await client.send(
        new PutObjectCommand({ Bucket, Key: SPEED_TEST_KEY, Body: body, ContentType: 'application/octet-stream', CacheControl: 'no-store' }),
      );
    }),
  );
  client.destroy();
}
