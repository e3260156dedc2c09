import { afterAll, vi } from 'vitest';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The unit project runs its files one after another in a few long-lived workers (isolate: false
 * in vitest.config.ts), so the dependencies (the AWS SDK, React, zod ...) load once per worker
 * instead of once per file. Each file still starts from what an isolated run would give it:
 * the repository's own modules are evaluated afresh for it (fresh clients, caches and
 * configuration), and what a file may leave behind is put back when it ends.
 */
vi.resetModules();
const env = { ...process.env };

/** Client classes whose `send` aws-sdk-client-mock replaces on the prototype (mockClient(Class)). */
const MOCKABLE_CLIENTS = [
  CloudFrontClient,
  CognitoIdentityProviderClient,
  DynamoDBClient,
  DynamoDBDocumentClient,
  EventBridgeClient,
  LambdaClient,
  S3Client,
  SecretsManagerClient,
  SESv2Client,
  SQSClient,
] as const;

afterAll(() => {
  for (const client of MOCKABLE_CLIENTS) {
    const send = client.prototype.send as { restore?: () => void };
    if (typeof send.restore === 'function') send.restore();
  }
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
});
