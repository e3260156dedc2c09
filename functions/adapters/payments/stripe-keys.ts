/**
 * The Stripe keys: one Secrets Manager secret (`sendbridge/stripe`, JSON
 * `{ secretKey, publishableKey, webhookSecret }`, docs/deploy.md) read once per cold start and
 * kept in memory. They never go to environment variables or logs: errors name the secret, not
 * its content.
 */
import type { GetSecretValueCommandInput, GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';

/** What reading the keys needs of Secrets Manager (tests hand in their own). */
export interface SecretReader {
  getSecretValue(input: GetSecretValueCommandInput): Promise<Pick<GetSecretValueCommandOutput, 'SecretString'>>;
}

/** Secrets Manager's SDK client, loaded on first use: only a Stripe deployment reads a secret. */
const sdkReader: SecretReader = {
  async getSecretValue(input) {
    const { secretsManager, GetSecretValueCommand } = await import('../../lib/clients/secrets-manager');
    return secretsManager().send(new GetSecretValueCommand(input));
  },
};

export interface StripeKeys {
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
}

export class StripeKeysError extends Error {
  constructor(secretId: string, reason: string) {
    super(`Stripe secret ${secretId}: ${reason}`);
    this.name = 'StripeKeysError';
  }
}

export function parseStripeKeys(secretId: string, secretString: string | undefined): StripeKeys {
  if (!secretString) throw new StripeKeysError(secretId, 'has no SecretString');
  let parsed: unknown;
  try {
    parsed = JSON.parse(secretString);
  } catch {
    throw new StripeKeysError(secretId, 'is not JSON of { secretKey, publishableKey, webhookSecret }');
  }
  const o = parsed as Partial<Record<keyof StripeKeys, unknown>> | null;
  const ok = (v: unknown, prefix: RegExp): v is string => typeof v === 'string' && prefix.test(v);
  if (!o || !ok(o.secretKey, /^(sk|rk)_(test|live)_/u))
    throw new StripeKeysError(secretId, 'secretKey must be a Stripe secret (sk_...) or restricted (rk_...) key');
  if (!ok(o.publishableKey, /^pk_(test|live)_/u))
    throw new StripeKeysError(secretId, 'publishableKey must be a Stripe publishable key (pk_...)');
  if (!ok(o.webhookSecret, /^whsec_/u))
    throw new StripeKeysError(secretId, 'webhookSecret must be the webhook endpoint signing secret (whsec_...)');
  return { secretKey: o.secretKey, publishableKey: o.publishableKey, webhookSecret: o.webhookSecret };
}

/** Reads the keys once; concurrent first callers share the one request, a failure is retried on the next call. */
export function createStripeKeysLoader(secretId: string, client: () => SecretReader = () => sdkReader) {
  let pending: Promise<StripeKeys> | undefined;
  let loaded: StripeKeys | undefined;
  return {
    get current(): StripeKeys | undefined {
      return loaded;
    },
    load(): Promise<StripeKeys> {
      if (loaded) return Promise.resolve(loaded);
      pending ??= client()
        .getSecretValue({ SecretId: secretId })
        .then((out) => {
          loaded = parseStripeKeys(secretId, out.SecretString);
          return loaded;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
  };
}

export type StripeKeysLoader = ReturnType<typeof createStripeKeysLoader>;
