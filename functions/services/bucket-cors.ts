/**
 * Keeps the custom-domains CORS rule of every region's buckets (functions/domain/bucket-cors.ts)
 * allowing exactly the hosts the app is served on: a file-request page or a signed-in
 * send on a custom host uploads straight to S3, which checks the page's origin.
 */
import { MAX_CUSTOM_ORIGINS, planCustomOrigins } from '../domain/bucket-cors';
import {
  DeleteBucketCorsCommand,
  GetBucketCorsCommand,
  PutBucketCorsCommand,
  type CORSRule,
  type S3Client,
} from '@aws-sdk/client-s3';
import { s3 } from '../lib/clients/s3';
import { config } from '../lib/env';
import { errorFields, log } from '../lib/log';
import { servedHosts } from '../data/custom-domains';
import { customDomainOrigin } from './link-origin';

export interface CorsSyncResult {
  /** buckets whose custom-domains rule was rewritten */
  readonly updated: number;
  /** buckets that could not be read or written (logged) */
  readonly failed: number;
  readonly origins: number;
}

/**
 * Makes the custom-domains rule of every region's transfers and anon bucket allow exactly the
 * origins of the hosts the app is served on (D14). Idempotent and self-healing: it compares
 * before it writes, so a deploy that reset a bucket's CORS to the app rule is repaired on the
 * next run. Never throws: a failing bucket is logged and counted, the others still sync.
 */
export async function syncBucketCors(): Promise<CorsSyncResult> {
  const origins = (await servedHosts()).map(customDomainOrigin);
  if (origins.length > MAX_CUSTOM_ORIGINS) {
    log.error('bucket CORS: too many custom domains for one CORS configuration; kept as it is', {
      origins: origins.length,
      max: MAX_CUSTOM_ORIGINS,
    });
    return { updated: 0, failed: 0, origins: origins.length };
  }
  const buckets = Object.values(config().regionBuckets).flatMap((b) =>
    [b.bucket, b.anonBucket].map((Bucket) => ({ Bucket, awsRegion: b.awsRegion })),
  );
  let updated = 0;
  let failed = 0;
  for (const { Bucket, awsRegion } of buckets) {
    try {
      const client = s3(awsRegion);
      const plan = planCustomOrigins(await bucketCorsRules(client, Bucket), origins);
      if (plan.action === 'none') continue;
      if (plan.action === 'put')
        await client.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: plan.rules } }));
      else await client.send(new DeleteBucketCorsCommand({ Bucket }));
      updated += 1;
    } catch (err) {
      failed += 1;
      log.error('bucket CORS not synced', { bucket: Bucket, ...errorFields(err) });
    }
  }
  return { updated, failed, origins: origins.length };
}

/** A bucket's CORS rules, or undefined when it has no configuration. */
export async function bucketCorsRules(client: S3Client, Bucket: string): Promise<CORSRule[] | undefined> {
  try {
    return (await client.send(new GetBucketCorsCommand({ Bucket }))).CORSRules;
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchCORSConfiguration') return undefined;
    throw err;
  }
}
