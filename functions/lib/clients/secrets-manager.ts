/**
 * Secrets Manager through the AWS SDK v3, one client per process, created on first use: the
 * Stripe keys (adapters/payments/stripe-keys.ts, which imports this on demand: only a Stripe
 * deployment reads a secret). The endpoint comes from the payments configuration, unset in AWS.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { paymentsConfig } from '../env';
import { REQUEST_HANDLER } from './timeouts';

export { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;

export function secretsManager(): SecretsManagerClient {
  if (!client) {
    const c = paymentsConfig();
    client = new SecretsManagerClient({
      region: c.awsRegion,
      requestHandler: REQUEST_HANDLER,
      ...(c.secretsManagerEndpoint ? { endpoint: c.secretsManagerEndpoint } : {}),
    });
  }
  return client;
}
