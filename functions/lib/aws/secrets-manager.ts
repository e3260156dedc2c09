/**
 * Secrets Manager (AWS JSON 1.1): GetSecretValue, the one operation functions/ uses (issue 14:
 * the Stripe keys). The SDK's client is not a dependency, so its input and output are typed
 * here with the members of the API reference that we send and read.
 */
import { paymentsConfig } from '../env';
import { jsonRpc, serviceEndpoint } from './core';

export interface GetSecretValueInput {
  /** the secret's name or ARN */
  readonly SecretId: string;
  readonly VersionId?: string;
  readonly VersionStage?: string;
}

export interface GetSecretValueOutput {
  readonly ARN?: string;
  readonly Name?: string;
  readonly VersionId?: string;
  readonly SecretString?: string;
  /** base64 in the wire JSON; not used by our secrets */
  readonly SecretBinary?: string;
  readonly VersionStages?: readonly string[];
  /** epoch seconds */
  readonly CreatedDate?: number;
}

export function createSecretsManager(opts: { region: string; endpoint?: string | undefined }) {
  const target = {
    service: 'secretsmanager',
    region: opts.region,
    endpoint: serviceEndpoint('secretsmanager', opts.region, opts.endpoint),
    targetPrefix: 'secretsmanager',
    jsonVersion: '1.1',
  } as const;
  return {
    getSecretValue: (input: GetSecretValueInput) => jsonRpc<GetSecretValueOutput>(target, 'GetSecretValue', input),
  };
}

export type SecretsManager = ReturnType<typeof createSecretsManager>;

let client: SecretsManager | undefined;

export function secretsManager(): SecretsManager {
  if (!client) {
    const c = paymentsConfig();
    client = createSecretsManager({ region: c.awsRegion, endpoint: c.secretsManagerEndpoint });
  }
  return client;
}
