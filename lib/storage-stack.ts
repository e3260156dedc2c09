import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as guardduty from 'aws-cdk-lib/aws-guardduty';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import { CLOUDTRAIL_DETAIL_TYPE, S3_EVENT_SOURCE } from '../functions/domain/delivery-events';
import type { Construct } from 'constructs';
import { BUCKET_CORS } from '../functions/routes';
import { APP_ORIGINS_RULE_ID } from '../functions/domain/bucket-cors';
import { IMAGE_STAGING_DAYS, IMAGE_STAGING_PREFIX } from '../functions/domain/branding';
import { ANON_OBJECT_EXPIRY_DAYS } from '../functions/domain/expiry';
import { SPEED_TEST_BYTES, SPEED_TEST_KEY, type RegionId } from '../functions/domain/regions';
import { PrivateBucket } from './constructs/private-bucket';
import {
  GUARDDUTY_DETAIL_TYPE,
  GUARDDUTY_SOURCE,
  QUARANTINE_PREFIX,
  QUARANTINE_RETENTION_DAYS,
  SCANNED_PREFIX,
} from '../functions/domain/malware-scan';
import { acknowledge, acknowledgeBucketDeploymentHandler } from './nag/acknowledge';

export interface StorageStackProps extends StackProps {
  readonly regionId: RegionId;
  /** Origins allowed to PUT/GET straight to the buckets (the app and custom domains). */
  readonly allowedOrigins: readonly string[];
  /**
   * the home region (CoreStack, the malware-scan job). GuardDuty's scan results of this
   * region's buckets are forwarded to that region's default event bus when it is another region.
   * Unset (the standalone China stacks): no malware protection plans.
   */
  readonly homeRegion?: string;
}

/** Uploads resumable within 7 days (spec §9): unfinished multipart uploads go after that. */
export const ABORT_INCOMPLETE_UPLOAD_DAYS = 7;
/**
 * Backstop for anonymous transfers (1 week expiry, spec §9, plus 48 h extensions, never past
 * it): the expiry sweep deletes them; this rule removes anything the sweep missed.
 */
export { ANON_OBJECT_EXPIRY_DAYS };
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
      lifecycleRules: [
        abortIncomplete,
        {
          id: 'ExpireUnacceptedImageUploads',
          prefix: IMAGE_STAGING_PREFIX,
          expiration: Duration.days(IMAGE_STAGING_DAYS),
        },
        // quarantined files are kept for operators this long, never served
        {
          id: 'ExpireQuarantinedFiles',
          prefix: QUARANTINE_PREFIX,
          expiration: Duration.days(QUARANTINE_RETENTION_DAYS),
        },
      ],
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'transfers/',
    });
    this.anonBucket = new PrivateBucket(this, 'AnonBucket', {
      cors,
      lifecycleRules: [
        abortIncomplete,
        { id: 'ExpireAnonymousTransfers', expiration: Duration.days(ANON_OBJECT_EXPIRY_DAYS) },
      ],
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

    if (props.homeRegion) {
      this.malwareProtection(props.homeRegion);
      this.downloadTrail(props.homeRegion, logs);
    }

    new CfnOutput(this, 'TransfersBucketName', { value: this.transfersBucket.bucketName });
    new CfnOutput(this, 'AnonBucketName', { value: this.anonBucket.bucketName });
  }

  /**
   * Download completion (docs/decisions/0077): a single-region trail logs the GetObject data
   * events of the served objects only (files under `t/`, ZIPs under `z/`, of both buckets;
   * advanced event selectors, so nothing else is logged or billed). CloudTrail puts each on this
   * region's default bus as "AWS API Call via CloudTrail"; a rule forwards them to the home
   * region's default bus, where the CoreStack's rule starts the deliveries job. The trail must
   * also deliver log files: to a bucket of their own, kept 30 days.
   */
  private downloadTrail(homeRegion: string, accessLogs: s3.IBucket): void {
    const buckets = [this.transfersBucket, this.anonBucket];
    const trailLogs = new PrivateBucket(this, 'DownloadTrailLogs', {
      expireAfterDays: DOWNLOAD_TRAIL_LOG_DAYS,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'download-trail/',
    });
    const trailName = `${this.stackName}-downloads`;
    const trailArn = `arn:${this.partition}:cloudtrail:${this.region}:${this.account}:trail/${trailName}`;
    const fromThisTrail = { StringEquals: { 'aws:SourceArn': trailArn } };
    const cloudTrail = new iam.ServicePrincipal('cloudtrail.amazonaws.com');
    trailLogs.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudTrail],
        actions: ['s3:GetBucketAcl'],
        resources: [trailLogs.bucketArn],
        conditions: fromThisTrail,
      }),
    );
    trailLogs.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudTrail],
        actions: ['s3:PutObject'],
        resources: [trailLogs.arnForObjects(`AWSLogs/${this.account}/*`)],
        conditions: { StringEquals: { ...fromThisTrail.StringEquals, 's3:x-amz-acl': 'bucket-owner-full-control' } },
      }),
    );
    const trail = new cloudtrail.CfnTrail(this, 'DownloadTrail', {
      trailName,
      s3BucketName: trailLogs.bucketName,
      isLogging: true,
      isMultiRegionTrail: false,
      includeGlobalServiceEvents: false,
      enableLogFileValidation: true,
      advancedEventSelectors: [
        {
          name: 'GetObject of the served files and ZIPs',
          fieldSelectors: [
            { field: 'eventCategory', equalTo: ['Data'] },
            { field: 'resources.type', equalTo: ['AWS::S3::Object'] },
            { field: 'eventName', equalTo: ['GetObject'] },
            {
              field: 'resources.ARN',
              startsWith: buckets.flatMap((b) => SERVED_PREFIXES.map((p) => `${b.bucketArn}/${p}`)),
            },
          ],
        },
      ],
    });
    // CloudTrail checks its access to the bucket when the trail is created
    const policy = trailLogs.policy;
    if (policy) trail.node.addDependency(policy);

    if (homeRegion === this.region) return;
    const homeBus = events.EventBus.fromEventBusArn(
      this,
      'HomeDefaultBusForDownloads',
      `arn:${this.partition}:events:${homeRegion}:${this.account}:event-bus/default`,
    );
    new events.Rule(this, 'ForwardGetObjectEvents', {
      description: "SendBridge: GetObject data events of this region's buckets to the home region",
      eventPattern: getObjectPattern(buckets.map((b) => b.bucketName)),
      targets: [new targets.EventBus(homeBus)],
    });
  }

  /**
   * GuardDuty Malware Protection for S3 on both buckets: every new object under the
   * transfers prefix (`t/`) is scanned and tagged `GuardDutyMalwareScanStatus`, and a
   * "GuardDuty Malware Protection Object Scan Result" event goes on this region's default bus.
   * The role is the one the plans assume (the policy of GuardDuty's documentation, scoped to
   * these two buckets). A rule forwards the results to the home region's default bus, where the
   * CoreStack's rule starts the malware-scan job.
   */
  private malwareProtection(homeRegion: string): void {
    const buckets = [this.transfersBucket, this.anonBucket];
    const role = new iam.Role(this, 'MalwareProtectionRole', {
      assumedBy: new iam.ServicePrincipal('malware-protection-plan.guardduty.amazonaws.com'),
      description: 'GuardDuty Malware Protection for S3: scans and tags the SendBridge buckets of this region',
    });
    const ruleArn = `arn:${this.partition}:events:${this.region}:${this.account}:rule/${GUARDDUTY_MANAGED_RULE_PREFIX}*`;
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['events:PutRule', 'events:DeleteRule', 'events:PutTargets', 'events:RemoveTargets'],
        resources: [ruleArn],
        conditions: { StringLike: { 'events:ManagedBy': 'malware-protection-plan.guardduty.amazonaws.com' } },
      }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({ actions: ['events:DescribeRule', 'events:ListTargetsByRule'], resources: [ruleArn] }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutBucketNotification', 's3:GetBucketNotification', 's3:ListBucket'],
        resources: buckets.map((b) => b.bucketArn),
      }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: [
          's3:GetObject',
          's3:GetObjectVersion',
          's3:GetObjectTagging',
          's3:GetObjectVersionTagging',
          's3:PutObjectTagging',
          's3:PutObjectVersionTagging',
        ],
        resources: buckets.map((b) => b.arnForObjects('*')),
      }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject'],
        resources: buckets.map((b) => b.arnForObjects('malware-protection-resource-validation-object')),
      }),
    );

    buckets.forEach((bucket, i) => {
      const plan = new guardduty.CfnMalwareProtectionPlan(
        this,
        i === 0 ? 'TransfersMalwareProtection' : 'AnonMalwareProtection',
        {
          role: role.roleArn,
          protectedResource: { s3Bucket: { bucketName: bucket.bucketName, objectPrefixes: [SCANNED_PREFIX] } },
          actions: { tagging: { status: 'ENABLED' } },
        },
      );
      // The plan checks the role's access when it is created: wait for its policy (the GetAtt of
      // the role's ARN already orders the role itself).
      const policy = role.node.tryFindChild('DefaultPolicy');
      if (policy) plan.node.addDependency(policy);
    });

    if (homeRegion === this.region) return;
    const homeBus = events.EventBus.fromEventBusArn(
      this,
      'HomeDefaultBus',
      `arn:${this.partition}:events:${homeRegion}:${this.account}:event-bus/default`,
    );
    new events.Rule(this, 'ForwardScanResults', {
      description: "SendBridge: GuardDuty malware scan results of this region's buckets to the home region",
      eventPattern: {
        source: [GUARDDUTY_SOURCE],
        detailType: [GUARDDUTY_DETAIL_TYPE],
        detail: { s3ObjectDetails: { bucketName: buckets.map((b) => b.bucketName) } },
      },
      targets: [new targets.EventBus(homeBus)],
    });
  }
}

/** The trail's log files are kept this long (the deliveries job reads the events, not the files). */
export const DOWNLOAD_TRAIL_LOG_DAYS = 30;
/** The object prefixes downloads are served from: files (`t/`) and ZIPs (`z/`). */
export const SERVED_PREFIXES = ['t/', 'z/'] as const;

/** The EventBridge pattern of CloudTrail's GetObject data events, of these buckets when named. */
export function getObjectPattern(bucketNames?: readonly string[]): events.EventPattern {
  return {
    source: [S3_EVENT_SOURCE],
    detailType: [CLOUDTRAIL_DETAIL_TYPE],
    detail: {
      eventSource: ['s3.amazonaws.com'],
      eventName: ['GetObject'],
      ...(bucketNames ? { requestParameters: { bucketName: [...bucketNames] } } : {}),
    },
  };
}

/** The prefix of the EventBridge rules GuardDuty manages on a protected bucket's behalf (its docs' IAM policy). */
export const GUARDDUTY_MANAGED_RULE_PREFIX = 'DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3';

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
