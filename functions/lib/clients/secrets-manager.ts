/**
 * Secrets Manager through the AWS SDK v3, one client per process, created on first use: the
 * Stripe keys (adapters/payments/stripe-keys.ts) and the receipt signing keys
 * (adapters/receipt-keys.ts), both of which import this on demand. The endpoint is set only by
 * tests (SECRETS_MANAGER_ENDPOINT), unset in AWS; it is read here rather than from the payments
 * configuration, which a function without payments does not have.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ENV } from '../env-names';
import { REQUEST_HANDLER } from './timeouts';

export { GetSecretValueCommand, PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;

export function secretsManager(): SecretsManagerClient {
  if (!client) {
    const endpoint = process.env[ENV.secretsManagerEndpoint];
    client = new SecretsManagerClient({
      region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
      requestHandler: REQUEST_HANDLER,
      ...(endpoint ? { endpoint } : {}),
    });
  }
  return client;
}
