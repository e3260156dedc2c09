import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export interface PrivateBucketProps extends Omit<s3.BucketProps, 'publicReadAccess' | 'websiteIndexDocument'> {
  /**
   * Days after which objects expire (log buckets).
   * @default - objects never expire
   */
  readonly expireAfterDays?: number;
}

/**
 * An S3 bucket with the secure defaults of conventions §9, overridable per prop:
 * Block Public Access (all four), TLS only (1.2+), SSE-S3, ACLs disabled, RETAIN, and no
 * versioning. Versioning stays off by default because every bucket here holds either
 * generated-key objects that the product deletes on purpose (expired transfers must really be
 * gone) or reproducible content (logs, the built app).
 */
export class PrivateBucket extends s3.Bucket {
  constructor(scope: Construct, id: string, props: PrivateBucketProps = {}) {
    const { expireAfterDays, lifecycleRules, ...rest } = props;
    super(scope, id, {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      removalPolicy: RemovalPolicy.RETAIN,
      autoDeleteObjects: false,
      lifecycleRules: [
        ...(lifecycleRules ?? []),
        ...(expireAfterDays === undefined
          ? []
          : [
              {
                id: 'ExpireObjects',
                expiration: Duration.days(expireAfterDays),
                abortIncompleteMultipartUploadAfter: Duration.days(1),
              },
            ]),
      ],
      ...rest,
    });
  }
}
