import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { BUCKET_CORS } from '../functions/routes';
import { APP_ORIGINS_RULE_ID } from '../functions/domain/bucket-cors';
import { IMAGE_STAGING_DAYS, IMAGE_STAGING_PREFIX } from '../functions/domain/branding';
import { SPEED_TEST_BYTES, SPEED_TEST_KEY, type RegionId } from '../functions/domain/regions';
import { PrivateBucket } from './constructs/private-bucket';
import { acknowledge, acknowledgeBucketDeploymentHandler } from './nag/acknowledge';

export interface StorageStackProps extends StackProps {
  readonly regionId: RegionId;
  /** Origins allowed to PUT/GET straight to the buckets (the app and custom domains). */
  readonly allowedOrigins: readonly string[];
}

/** Uploads resumable within 7 days (spec §9): unfinished multipart uploads go after that. */
export const ABORT_INCOMPLETE_UPLOAD_DAYS = 7;
/**
 * Backstop for anonymous transfers (1 week expiry, spec §9, plus 48 h extensions): the expiry
 * sweep deletes them; this rule removes anything the sweep missed.
 */
export const ANON_OBJECT_EXPIRY_DAYS = 30;
export const ACCESS_LOG_RETENTION_DAYS = 90;

/**
 * One storage region (spec §9): the transfers bucket, the anonymous uploads bucket and their
 * access-log bucket. The browser uploads and downloads straight to these buckets with presigned
 * URLs (architecture §3), so they allow CORS from the app origins but nothing public.
 */
export class StorageStack extends Stack {
  readonly regionId: RegionId;
  readonly transfersBucket: s3.Bucket;
  readonly anonBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageStackProps) {
    super(scope, id, props);
    this.regionId = props.regionId;

    const logs = new PrivateBucket(this, 'AccessLogs', { expireAfterDays: ACCESS_LOG_RETENTION_DAYS });
    acknowledge(logs, 'AwsSolutions-S1', 'accessLogBucket');

    // The app origins' rule; the tenant job adds and keeps a rule of its own, `custom-domains`,
    // for the verified custom hosts (functions/services/bucket-cors.ts).
    const cors: s3.CorsRule[] = [
      {
        id: APP_ORIGINS_RULE_ID,
        allowedOrigins: [...props.allowedOrigins],
        allowedMethods: BUCKET_CORS.allowMethods.map((m) => s3.HttpMethods[m]),
        allowedHeaders: [...BUCKET_CORS.allowHeaders],
        exposedHeaders: [...BUCKET_CORS.exposeHeaders],
        maxAge: BUCKET_CORS.maxAgeSeconds,
      },
    ];
    const abortIncomplete: s3.LifecycleRule = {
      id: 'AbortIncompleteMultipartUploads',
      abortIncompleteMultipartUploadAfter: Duration.days(ABORT_INCOMPLETE_UPLOAD_DAYS),
    };

    this.transfersBucket = new PrivateBucket(this, 'TransfersBucket', {
      cors,
      lifecycleRules: [abortIncomplete, { id: 'ExpireUnacceptedImageUploads', prefix: IMAGE_STAGING_PREFIX, expiration: Duration.days(IMAGE_STAGING_DAYS) }],
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'transfers/',
    });
    this.anonBucket = new PrivateBucket(this, 'AnonBucket', {
      cors,
      lifecycleRules: [abortIncomplete, { id: 'ExpireAnonymousTransfers', expiration: Duration.days(ANON_OBJECT_EXPIRY_DAYS) }],
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'anon/',
    });

    // The region picker HEADs this object to measure latency (spec §11). prune: false is vital:
    // the default would delete every other object (the users' files) on each deploy.
    new s3deploy.BucketDeployment(this, 'SpeedTestObject', {
      sources: [s3deploy.Source.data(SPEED_TEST_KEY, speedTestContent(SPEED_TEST_BYTES))],
      destinationBucket: this.transfersBucket,
      prune: false,
      retainOnDelete: true,
      contentType: 'application/octet-stream',
      cacheControl: [s3deploy.CacheControl.noStore()],
      memoryLimit: 256,
    });
    acknowledgeBucketDeploymentHandler(this);

    new CfnOutput(this, 'TransfersBucketName', { value: this.transfersBucket.bucketName });
    new CfnOutput(this, 'AnonBucketName', { value: this.anonBucket.bucketName });
  }
}

/**
 * Deterministic, incompressible-looking ASCII of exactly `bytes` bytes (a fixed asset hash, so
 * a redeploy does not rewrite the object).
 */
export function speedTestContent(bytes: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let seed = 0x2545f491;
  let out = '';
  for (let i = 0; i < bytes; i++) {
    // xorshift32
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    out += alphabet[(seed >>> 0) % 64];
  }
  return out;
}
