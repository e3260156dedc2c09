import { ENV } from './env-names';
import { DEFAULT_REGION, isRegionId, type RegionId } from '../domain/regions';

/**
 * Configuration read once per cold start (conventions §6). Read lazily on first use rather
 * than at import so that tooling (CDK tests, the route-table check) can import handler
 * modules without a runtime environment; a missing variable still fails the first request
 * with its name. Checked by hand, not with zod: every function reads it, and most need no zod.
 */

export interface RegionBuckets {
  readonly bucket: string;
  readonly anonBucket: string;
  readonly awsRegion: string;
}

export interface Config {
  readonly tableName: string;
  readonly regionBuckets: Readonly<Partial<Record<RegionId, RegionBuckets>>>;
  readonly defaultRegion: RegionId;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  readonly mailFrom: string;
  readonly sesConfigurationSet: string | undefined;
  readonly appOrigin: string;
  readonly awsRegion: string;
  readonly endpoints: {
    readonly dynamodb: string | undefined;
    readonly s3: string | undefined;
    readonly cognito: string | undefined;
    readonly ses: string | undefined;
    readonly lambda: string | undefined;
  };
  /** job name -> Lambda function name, for the jobs this function may start */
  readonly jobFunctions: Readonly<Record<string, string>>;
  readonly geoipDatabase: string | undefined;
}

export class MissingConfigError extends Error {
  constructor(name: string, reason = 'is not set') {
    super(`Environment variable ${name} ${reason}`);
    this.name = 'MissingConfigError';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, min: number): v is string => typeof v === 'string' && v.length >= min;

function parseRegionBuckets(raw: string): Config['regionBuckets'] {
  const parsed = safeJson(raw);
  if (!isObject(parsed)) throw new Error('not an object');
  const out: Partial<Record<RegionId, RegionBuckets>> = {};
  for (const [regionId, b] of Object.entries(parsed)) {
    if (!isRegionId(regionId)) throw new Error(`unknown storage region id ${regionId}`);
    if (!isObject(b) || !isText(b.bucket, 3) || !isText(b.anonBucket, 3) || !isText(b.awsRegion, 1))
      throw new Error(`bad buckets of ${regionId}`);
    out[regionId] = { bucket: b.bucket, anonBucket: b.anonBucket, awsRegion: b.awsRegion };
  }
  return out;
}

function required(source: NodeJS.ProcessEnv, name: string): string {
  const value = source[name];
  if (!value) throw new MissingConfigError(name);
  return value;
}

const optional = (source: NodeJS.ProcessEnv, name: string) => source[name] || undefined;

export function readConfig(source: NodeJS.ProcessEnv = process.env): Config {
  let regionBuckets: Config['regionBuckets'];
  try {
    regionBuckets = parseRegionBuckets(required(source, ENV.regionBuckets));
  } catch (err) {
    if (err instanceof MissingConfigError) throw err;
    throw new MissingConfigError(ENV.regionBuckets, 'is not valid JSON of {regionId: {bucket, anonBucket, awsRegion}}');
  }
  const defaultRegion = source[ENV.defaultRegion] || DEFAULT_REGION;
  if (!isRegionId(defaultRegion) || !regionBuckets[defaultRegion]) {
    throw new MissingConfigError(ENV.defaultRegion, `names a region (${defaultRegion}) without buckets`);
  }
  return {
    tableName: required(source, ENV.tableName),
    regionBuckets,
    defaultRegion,
    userPoolId: required(source, ENV.userPoolId),
    userPoolClientId: required(source, ENV.userPoolClientId),
    mailFrom: required(source, ENV.mailFrom),
    sesConfigurationSet: optional(source, ENV.sesConfigurationSet),
    appOrigin: required(source, ENV.appOrigin),
    awsRegion: source.AWS_REGION || source.AWS_DEFAULT_REGION || 'us-east-1',
    endpoints: {
      dynamodb: optional(source, ENV.dynamodbEndpoint),
      s3: optional(source, ENV.s3Endpoint),
      cognito: optional(source, ENV.cognitoEndpoint),
      ses: optional(source, ENV.sesEndpoint),
      lambda: optional(source, ENV.lambdaEndpoint),
    },
    jobFunctions: readJobFunctions(source),
    geoipDatabase: optional(source, ENV.geoipDatabase),
  };
}

function readJobFunctions(source: NodeJS.ProcessEnv): Record<string, string> {
  const raw = optional(source, ENV.jobFunctions);
  if (!raw) return {};
  const parsed = safeJson(raw);
  if (!isObject(parsed) || !Object.values(parsed).every((name) => isText(name, 1))) {
    throw new MissingConfigError(ENV.jobFunctions, 'is not valid JSON of {jobName: functionName}');
  }
  return parsed as Record<string, string>;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= readConfig();
  return cached;
}

/**
 * ORIGIN_VERIFY (alone: the HTTP layer needs it without the rest of the config). Read on each
 * call: a local stack makes a new one on every start, and tests start several in one process.
 */
export function originVerifySecret(): string | undefined {
  return process.env[ENV.originVerify] || undefined;
}

/** which payments provider runs and how it is reached (functions/adapters/payments/). */
export interface PaymentsConfig {
  /** PAYMENTS: `stripe` (which then needs STRIPE_SECRET_ID) or `simulated` (the default) */
  readonly provider: 'simulated' | 'stripe';
  /** the simulator delivers its events here */
  readonly webhookUrl: string;
  /** the simulator's signing secret (never Stripe's: Stripe's comes from Secrets Manager) */
  readonly simulatorWebhookSecret: string;
  /** `role/period` -> Stripe price id */
  readonly stripePrices: Readonly<Record<string, string>>;
  readonly stripeSecretId: string | undefined;
  readonly secretsManagerEndpoint: string | undefined;
  readonly appOrigin: string;
  readonly awsRegion: string;
}

/**
 * The local stack's simulator webhook secret: public (it is in this repository), so it is used
 * only outside Lambda. In AWS the simulator signs with the secret CDK generates; a Lambda
 * without PAYMENTS_WEBHOOK_SECRET fails its configuration rather than accept events anyone
 * could sign.
 */
export const SIMULATOR_DEFAULT_WEBHOOK_SECRET = 'whsec_sendbridge_local_simulator';

/** Lambda always sets AWS_LAMBDA_FUNCTION_NAME; the local stack runs the handlers without it. */
function simulatorSecretOf(source: NodeJS.ProcessEnv, provider: 'simulated' | 'stripe'): string {
  const secret = optional(source, ENV.paymentsWebhookSecret);
  if (secret) return secret;
  if (source.AWS_LAMBDA_FUNCTION_NAME && provider === 'simulated') {
    throw new MissingConfigError(
      ENV.paymentsWebhookSecret,
      'is not set: in AWS the payments simulator signs with the secret CDK generates, never the public local one',
    );
  }
  return SIMULATOR_DEFAULT_WEBHOOK_SECRET;
}

export function readPaymentsConfig(source: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  const asked = source[ENV.payments] || 'simulated';
  if (asked !== 'simulated' && asked !== 'stripe')
    throw new MissingConfigError(ENV.payments, `must be simulated or stripe, not ${asked}`);
  const stripeSecretId = optional(source, ENV.stripeSecretId);
  const appOrigin = required(source, ENV.appOrigin).replace(/\/+$/u, '');
  let stripePrices: Record<string, string> = {};
  const rawPrices = optional(source, ENV.stripePrices);
  if (rawPrices) {
    const parsed = safeJson(rawPrices);
    if (
      !isObject(parsed) ||
      !Object.entries(parsed).every(([k, v]) => /^[a-z]+\/(month|year)$/u.test(k) && isText(v, 1))
    ) {
      throw new MissingConfigError(ENV.stripePrices, 'is not valid JSON of {"<role>/<month|year>": "price_..."}');
    }
    stripePrices = parsed as Record<string, string>;
  }
  // Asked for Stripe, a deployment without its keys must not quietly take payments on the simulator.
  if (asked === 'stripe' && !stripeSecretId) {
    throw new MissingConfigError(
      ENV.stripeSecretId,
      'is not set: PAYMENTS=stripe reads the Stripe keys from the Secrets Manager secret it names',
    );
  }
  return {
    provider: asked,
    webhookUrl: optional(source, ENV.paymentsWebhookUrl) ?? `${appOrigin}/api/stripe/webhook`,
    simulatorWebhookSecret: simulatorSecretOf(source, asked),
    stripePrices,
    stripeSecretId,
    secretsManagerEndpoint: optional(source, ENV.secretsManagerEndpoint),
    appOrigin,
    awsRegion: source.AWS_REGION || source.AWS_DEFAULT_REGION || 'us-east-1',
  };
}

let paymentsCached: PaymentsConfig | undefined;

export function paymentsConfig(): PaymentsConfig {
  paymentsCached ??= readPaymentsConfig();
  return paymentsCached;
}

/** Forgets the cached payments configuration (tests that point the simulator elsewhere, scripts). */
export function resetPaymentsConfig(): void {
  paymentsCached = undefined;
}
