import { SecretValue } from 'aws-cdk-lib';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';

/** `-c originVerifyVersion`: a Secrets Manager VersionId (a UUID), as put-secret-value prints it. */
export const ORIGIN_VERIFY_VERSION = /^[A-Za-z0-9-]{32,64}$/u;

/**
 * The origin-verify value as a dynamic reference, for CloudFront's origin header and the
 * functions' environment alike. Without a version it resolves the secret's current value once,
 * when the resource is created; naming the version changes the template, so a deploy after
 * `put-secret-value` really sends and expects the new value (docs/deploy.md, "Rotating").
 */
export function originVerifyValue(secret: secretsmanager.ISecret, versionId: string | undefined): string {
  return (versionId ? SecretValue.secretsManager(secret.secretArn, { versionId }) : secret.secretValue).unsafeUnwrap();
}
