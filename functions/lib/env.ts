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
    if (!isObject(b) || !isText(b.bucket, 3) || !isText(b.anonBucket, 3) || !isText(b.awsRegion, 1)) throw new Error(`bad buckets of ${regionId}`);
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

let originVerify: { value: string | undefined } | undefined;

/** ORIGIN_VERIFY, read once (alone: the HTTP layer needs it without the rest of the config). */
export function originVerifySecret(): string | undefined {
  originVerify ??= { value: process.env[ENV.originVerify] || undefined };
  return originVerify.value;
}
