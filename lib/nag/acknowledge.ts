import { type Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Every cdk-nag finding this app accepts, with its reason. Acknowledgements name a key of this
 * table so the reasons live in one place; docs/deploy.md lists the same table.
 */
export const NAG_REASONS = {
  accessLogBucket:
    'This bucket is the destination of access logs; logging it into itself would loop and another log bucket would only move the problem.',
  publicRoute:
    "The route's auth is 'none' in functions/routes.ts: anonymous product flows (download links, sign-in, sign-up, health) are public by design; the handler enforces link passwords, codes and rate limits itself.",
  apiKeyRoute:
    "the route's auth is 'key' in functions/routes.ts (the public API v1): an API key is not a Cognito JWT, so the HTTP API has no authorizer for it; the handler verifies the key (hash, scope, rate limit) before reading any input (functions/services/api-keys.ts keyRoute), exactly as the local gateway runs it.",
  passwordPolicy:
    'Spec section 9: signup passwords need at least 6 characters and no composition rules; the pool enforces exactly the product rule (min 6), the signup form validates the same.',
  noMfa:
    'The product (spec section 7) has no MFA; sign-in is email + password through the backend, attempts are counted server-side.',
  cognitoPlan:
    'The Plus feature plan (threat protection) is billed per monthly active user; the Essentials plan is used, the backend counts failed attempts and codes itself. Switch the featurePlan in lib/core-stack.ts to enable it.',
  noGeoRestriction: 'A file transfer service for recipients anywhere; no country is restricted by design.',
  noWaf:
    'WAF is optional for this workload and billed per web ACL and request; the HTTP API is throttled per stage. Attach a web ACL (us-east-1) when abuse requires it.',
  defaultCertificate:
    'Without -c domainName the distribution uses the default *.cloudfront.net certificate, for which CloudFront does not allow choosing the minimum TLS version. With a custom domain the distribution uses TLSv1.2_2021 and this is not acknowledged.',
  bucketDeploymentRuntime:
    "CDK's BucketDeployment handler (deploy-time only) ships its own Python runtime version with aws-cdk-lib; it is not product code.",
  bucketDeploymentManagedPolicy:
    "CDK's BucketDeployment handler (deploy-time only) uses AWSLambdaBasicExecutionRole for its own logs; the role is created and scoped by aws-cdk-lib.",
  tenantCertificates:
    "the multi-tenant distribution has no certificate of its own; each custom domain's tenant gets a CloudFront-managed certificate (TLS 1.2 minimum), made by the tenant job.",
  deadLetterQueue:
    "this queue is the webhook delivery queue's dead-letter queue; a dead-letter queue of its own would only move the problem.",
  originVerifyRotation:
    "The origin-verify value lives in CloudFront's origin headers and the functions' environment, both set at deploy; a rotation Lambda would change it under a running distribution. Rotate by putting a new value and deploying with -c originVerifyVersion=<its VersionId>, which changes both templates (docs/deploy.md, Rotating the origin-verify secret).",
  simulatorSecretRotation:
    "The payments simulator's signing secret is only shared by the billing function with itself (it signs the events it delivers to its own webhook route) and lives in its environment, set at deploy; there is no third party to rotate with. A new value takes a redeploy.",
  receiptKeysRotation:
    'The receipt signing keys are rotated by adding a key to the set (npm run receipts:keys -- rotate, docs/deploy.md), never by replacing it: every receipt ever signed must keep verifying with its key id. A Secrets Manager rotation Lambda would replace the value; the functions add keys with a compare-and-set instead.',
} as const;

export type NagReasonKey = keyof typeof NAG_REASONS;

export function acknowledge(scope: IConstruct, id: string, reason: NagReasonKey): void {
  Validations.of(scope).acknowledge({ id, reason: NAG_REASONS[reason] });
}

/**
 * BucketDeployment puts one singleton handler per stack at the stack root; acknowledge its
 * CDK-owned runtime and managed policy there (its IAM wildcards go through lib/nag/checks.ts).
 */
export function acknowledgeBucketDeploymentHandler(stack: Stack): void {
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    acknowledge(child, 'AwsSolutions-L1', 'bucketDeploymentRuntime');
    acknowledge(
      child,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'bucketDeploymentManagedPolicy',
    );
  }
}
