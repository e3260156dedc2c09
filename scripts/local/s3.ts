import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  HeadObjectCommand,
  PutObjectCommand,
  type HeadObjectCommandInput,
  type HeadObjectCommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { appCorsXml } from '../../functions/domain/bucket-cors';
import { createS3Client } from '../../functions/lib/clients/s3';
import { SPEED_TEST_BYTES, SPEED_TEST_KEY } from '../../functions/domain/regions';
import { startChild, type Child } from './child';
import { CLOUDTRAIL_CONTROL_PATH } from './s3rver-cloudtrail';

const childScript = fileURLToPath(new URL('./s3rver-child.ts', import.meta.url));

export async function startS3(opts: {
  port: number;
  dataDir: string;
  buckets: string[];
  corsOrigins: string[];
}): Promise<Child> {
  mkdirSync(opts.dataDir, { recursive: true });
  const config = {
    port: opts.port,
    directory: opts.dataDir,
    buckets: opts.buckets,
    corsXml: appCorsXml(opts.corsOrigins),
  };
  return startChild('s3rver', process.execPath, ['--openssl-legacy-provider', '--import', 'tsx', childScript], {
    env: { ...process.env, S3RVER_CONFIG: JSON.stringify(config) },
    ready: /S3RVER READY/,
    port: opts.port,
  });
}

/** An S3 client on the emulator, with its key pair, configured as the functions' (functions/lib/clients/s3.ts). */
export function localS3Client(endpoint: string): S3Client {
  return createS3Client({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
}

/**
 * The same client for the ZIP bench (scripts/bench/zip-build*), which also checks the stored
 * archive's size with a `headObject` of its own.
 */
export function localFunctionsS3(
  endpoint: string,
): S3Client & { headObject(input: HeadObjectCommandInput): Promise<HeadObjectCommandOutput> } {
  const client = localS3Client(endpoint);
  return Object.assign(client, {
    headObject: (input: HeadObjectCommandInput) => client.send(new HeadObjectCommand(input)),
  });
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
        new PutObjectCommand({
          Bucket,
          Key: SPEED_TEST_KEY,
          Body: body,
          ContentType: 'application/octet-stream',
          CacheControl: 'no-store',
        }),
      );
    }),
  );
  client.destroy();
}

/**
 * Sends the GetObject CloudTrail events of `buckets` to a local Lambda Invoke URL (or stops them
 * with null): the local stand-in of a trail's data event selectors and the EventBridge rule
 * (./s3rver-cloudtrail.ts).
 */
export async function routeCloudTrailEvents(
  endpoint: string,
  buckets: readonly string[],
  target: string | null,
): Promise<void> {
  const res = await fetch(`${endpoint}${CLOUDTRAIL_CONTROL_PATH}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ buckets, target }),
  });
  if (!res.ok) throw new Error(`s3rver refused the CloudTrail targets: ${res.status} ${await res.text()}`);
}
