import type { App } from 'aws-cdk-lib';
import type { RegionId } from '../functions/domain/regions';
import { DEFAULT_REGIONS, REGION_CONFIG, isChinaRegion, parseRegionList } from './region-config';
import { ORIGIN_VERIFY_VERSION } from './origin-verify';

/**
 * Everything a deployment varies by, read once from CDK context (`-c key=value` or cdk.json).
 * docs/deploy.md lists the keys; nothing here needs AWS credentials, so synth works offline.
 */
export interface AppConfig {
  /** Storage regions in the global partition: one StorageStack each, all wired into the API. */
  readonly regions: readonly RegionId[];
  /** China-partition storage regions (opt-in): standalone StorageStacks, not wired into the API. */
  readonly chinaRegions: readonly RegionId[];
  /** AWS region of CoreStack and WebStack. */
  readonly homeRegion: string;
  /** Account of the global stacks; undefined = environment-agnostic account (offline synth). */
  readonly account: string | undefined;
  /** Account in the aws-cn partition, required when `regions` names a China region. */
  readonly chinaAccount: string | undefined;
  /** Browser origins of the app; the first one goes into mail links (APP_ORIGIN). */
  readonly appOrigins: readonly string[];
  /** True when `appOrigins` came from context (or a custom domain) rather than the fallback. */
  readonly appOriginsConfigured: boolean;
  readonly mailFrom: string;
  readonly mailFromConfigured: boolean;
  /** Optional custom domain of the distribution, with its ACM certificate (us-east-1). */
  readonly domainName: string | undefined;
  readonly certificateArn: string | undefined;
  /** where users point their custom domain's CNAME (the connection group's routing endpoint, known after the first deploy) */
  readonly customDomainTarget: string | undefined;
  /** -c abuseReportTo, the operator address abuse reports are mailed to (unset: recorded only) */
  readonly abuseReportTo: string | undefined;
  /** -c originVerifyVersion: the origin-verify secret's VersionId after a rotation (unset: its current value) */
  readonly originVerifyVersion: string | undefined;
  /** which payments provider the functions run (PAYMENTS) and Stripe's price ids (STRIPE_PRICES) */
  readonly payments: PaymentsSettings;
}

export interface PaymentsSettings {
  /** `simulated` (default) or `stripe` */
  readonly provider: 'simulated' | 'stripe';
  /** `role/period` -> Stripe price id, as `npm run stripe:setup` prints it */
  readonly stripePrices: Readonly<Record<string, string>>;
  /** the Secrets Manager secret with { secretKey, publishableKey, webhookSecret } */
  readonly stripeSecretName: string;
}

/** The one Stripe secret (docs/deploy.md): created by the operator, read by the billing functions. */
export const STRIPE_SECRET_NAME = 'sendbridge/stripe';

export const CONTEXT_KEYS = {
  regions: 'regions',
  homeRegion: 'homeRegion',
  account: 'account',
  chinaAccount: 'chinaAccount',
  appOrigins: 'appOrigins',
  mailFrom: 'mailFrom',
  domainName: 'domainName',
  certificateArn: 'certificateArn',
  payments: 'payments',
  stripePrices: 'stripePrices',
  customDomainTarget: 'customDomainTarget',
  abuseReportTo: 'abuseReportTo',
  originVerifyVersion: 'originVerifyVersion',
} as const;

/**
 * Origins allowed when none are configured: any CloudFront default domain, so the first deploy
 * (before the distribution's own domain is known) can upload straight to the buckets. The
 * presigned signature, not CORS, protects the buckets (architecture §1).
 */
export const FALLBACK_BUCKET_ORIGINS = ['https://*.cloudfront.net'] as const;

/** APP_ORIGIN until `-c appOrigins` is set: obviously wrong in a mail link, never a real host. */
export const UNCONFIGURED_APP_ORIGIN = 'https://app-origin-not-configured.invalid';

export const DEFAULT_MAIL_FROM = 'SendBridge <no-reply@example.com>';

const ORIGIN = /^https:\/\/[a-z0-9.-]+(:\d+)?$/i;
const ACCOUNT = /^\d{12}$/;

function contextString(app: App, key: string): string | undefined {
  const raw: unknown = app.node.tryGetContext(key);
  if (raw === undefined || raw === null) return undefined;
  if (Array.isArray(raw)) return raw.map(String).join(',');
  const value = String(raw).trim();
  return value === '' ? undefined : value;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function readAppConfig(app: App, env: NodeJS.ProcessEnv = process.env): AppConfig {
  const all = parseRegionList(contextString(app, CONTEXT_KEYS.regions) ?? DEFAULT_REGIONS.join(','));
  const regions = all.filter((r) => !isChinaRegion(r));
  const chinaRegions = all.filter((r) => isChinaRegion(r));
  if (regions.length === 0) {
    throw new Error('-c regions names no global-partition region; the API needs at least one (e.g. hongkong)');
  }

  const chinaAccount = contextString(app, CONTEXT_KEYS.chinaAccount);
  if (chinaRegions.length > 0 && !chinaAccount) {
    throw new Error(
      `-c regions names ${chinaRegions.join(', ')}, which live in the AWS China partition (aws-cn); ` +
        'pass -c chinaAccount=<12-digit aws-cn account id> to deploy them (see docs/deploy.md)',
    );
  }
  const account = contextString(app, CONTEXT_KEYS.account) ?? env.CDK_DEFAULT_ACCOUNT;
  for (const [key, value] of [
    [CONTEXT_KEYS.account, account],
    [CONTEXT_KEYS.chinaAccount, chinaAccount],
  ] as const) {
    if (value !== undefined && !ACCOUNT.test(value))
      throw new Error(`-c ${key}: '${value}' is not a 12-digit account id`);
  }

  const homeRegion = contextString(app, CONTEXT_KEYS.homeRegion) ?? REGION_CONFIG[regions[0]!].defaultHomeRegion;
  if (homeRegion.startsWith('cn-')) throw new Error('-c homeRegion must be a global-partition region');

  const domainName = contextString(app, CONTEXT_KEYS.domainName);
  const certificateArn = contextString(app, CONTEXT_KEYS.certificateArn);
  if (Boolean(domainName) !== Boolean(certificateArn)) {
    throw new Error('-c domainName and -c certificateArn go together (an ACM certificate in us-east-1 for the domain)');
  }
  if (certificateArn && !certificateArn.startsWith('arn:aws:acm:us-east-1:')) {
    throw new Error(
      '-c certificateArn must be an ACM certificate in us-east-1 (CloudFront only reads certificates there)',
    );
  }

  let appOrigins = list(contextString(app, CONTEXT_KEYS.appOrigins));
  if (appOrigins.length === 0 && domainName) appOrigins = [`https://${domainName}`];
  for (const origin of appOrigins) {
    if (!ORIGIN.test(origin))
      throw new Error(`-c appOrigins: '${origin}' is not an https origin like https://send.example.com`);
  }

  const mailFrom = contextString(app, CONTEXT_KEYS.mailFrom);
  return {
    payments: readPayments(app),
    regions,
    chinaRegions,
    homeRegion,
    account,
    chinaAccount,
    appOrigins,
    appOriginsConfigured: appOrigins.length > 0,
    mailFrom: mailFrom ?? DEFAULT_MAIL_FROM,
    mailFromConfigured: mailFrom !== undefined,
    domainName,
    certificateArn,
    customDomainTarget: contextString(app, CONTEXT_KEYS.customDomainTarget),
    abuseReportTo: contextString(app, CONTEXT_KEYS.abuseReportTo),
    originVerifyVersion: readOriginVerifyVersion(app),
  };
}

function readOriginVerifyVersion(app: App): string | undefined {
  const version = contextString(app, CONTEXT_KEYS.originVerifyVersion);
  if (version !== undefined && !ORIGIN_VERIFY_VERSION.test(version)) {
    throw new Error(
      `-c originVerifyVersion: '${version}' is not a Secrets Manager VersionId (the UUID put-secret-value prints)`,
    );
  }
  return version;
}

function readPayments(app: App): PaymentsSettings {
  const provider = contextString(app, CONTEXT_KEYS.payments);
  // No default: a deploy that silently ran the simulator would hand out paid plans for a test card.
  if (provider === undefined) {
    throw new Error(
      '-c payments is required: "stripe" takes real payments (with -c stripePrices and the sendbridge/stripe secret, docs/deploy.md), ' +
        '"simulated" runs the payments simulator, a demo in which anyone can subscribe with the test card 4242 4242 4242 4242',
    );
  }
  if (provider !== 'simulated' && provider !== 'stripe')
    throw new Error(`-c payments: '${provider}' is not simulated or stripe`);
  const raw: unknown = app.node.tryGetContext(CONTEXT_KEYS.stripePrices);
  let prices: unknown = raw ?? {};
  if (typeof raw === 'string') {
    try {
      prices = JSON.parse(raw);
    } catch {
      throw new Error('-c stripePrices is not JSON (paste what `npm run stripe:setup` prints)');
    }
  }
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices))
    throw new Error('-c stripePrices must be a JSON object');
  for (const [key, id] of Object.entries(prices)) {
    if (!/^[a-z]+\/(month|year)$/u.test(key) || typeof id !== 'string' || !id.startsWith('price_')) {
      throw new Error(`-c stripePrices: '${key}' -> '${String(id)}' is not "<role>/<month|year>": "price_..."`);
    }
  }
  if (provider === 'stripe' && Object.keys(prices).length === 0)
    throw new Error('-c payments=stripe needs -c stripePrices (run `npm run stripe:setup`)');
  return { provider, stripePrices: prices as Record<string, string>, stripeSecretName: STRIPE_SECRET_NAME };
}
