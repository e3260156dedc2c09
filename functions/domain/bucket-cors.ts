/**
 * The buckets' CORS configuration (architecture §1): the browser uploads and downloads straight
 * to S3, so each bucket allows the app's origins, and the origins of the verified custom domains
 * the app is served on. Two rules, told apart by their ID:
 * - `app-origins`: the deployment's app origins, owned by the StorageStack (CDK) and, locally,
 *   by the emulator's start-up configuration;
 * - `custom-domains`: the verified custom hosts, owned by the tenant job, which rewrites only this
 *   rule and keeps every other rule as it found it.
 * Pure: rules are the SDK's CORSRule shape (GetBucketCors / PutBucketCors of
 * services/bucket-cors.ts); the emulator's start-up takes them as XML (appCorsXml).
 */
import type { CORSRule } from '@aws-sdk/client-s3';
import { BUCKET_CORS } from '../routes';

export const APP_ORIGINS_RULE_ID = 'app-origins';
export const CUSTOM_DOMAINS_RULE_ID = 'custom-domains';

/**
 * S3 takes a CORS configuration of at most 64 KB; one custom origin costs about 60 bytes, so a
 * deployment's bucket CORS holds about a thousand custom domains with room to spare. Past this
 * count the job keeps the configuration it has and logs why (docs/deploy.md).
 */
export const MAX_CUSTOM_ORIGINS = 900;

/** One rule with the product's methods and headers. */
export function corsRule(id: string, origins: readonly string[]): CORSRule {
  return {
    ID: id,
    AllowedOrigins: [...origins],
    AllowedMethods: [...BUCKET_CORS.allowMethods],
    AllowedHeaders: [...BUCKET_CORS.allowHeaders],
    ExposeHeaders: [...BUCKET_CORS.exposeHeaders],
    MaxAgeSeconds: BUCKET_CORS.maxAgeSeconds,
  };
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/gu, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]!};`);

/** The start-up configuration of a bucket, the app origins' rule only, as XML (s3rver's bucket configs). */
export function appCorsXml(appOrigins: readonly string[]): string {
  const r = corsRule(APP_ORIGINS_RULE_ID, appOrigins);
  const inner = [
    `<ID>${escapeXml(r.ID!)}</ID>`,
    ...r.AllowedOrigins!.map((o) => `<AllowedOrigin>${escapeXml(o)}</AllowedOrigin>`),
    ...r.AllowedMethods!.map((m) => `<AllowedMethod>${m}</AllowedMethod>`),
    ...r.AllowedHeaders!.map((h) => `<AllowedHeader>${escapeXml(h)}</AllowedHeader>`),
    ...r.ExposeHeaders!.map((h) => `<ExposeHeader>${escapeXml(h)}</ExposeHeader>`),
    `<MaxAgeSeconds>${r.MaxAgeSeconds}</MaxAgeSeconds>`,
  ].join('');
  return `<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><CORSRule>${inner}</CORSRule></CORSConfiguration>`;
}

const sorted = (origins: Iterable<string>) => [...new Set(origins)].sort();

/** The origins the custom-domains rule of a configuration allows (none when it has no such rule). */
export function customOriginsOf(rules: readonly CORSRule[] | undefined): string[] {
  const rule = (rules ?? []).find((r) => r.ID === CUSTOM_DOMAINS_RULE_ID);
  return rule ? sorted(rule.AllowedOrigins ?? []) : [];
}

export type CorsPlan =
  | { readonly action: 'none' }
  | { readonly action: 'put'; readonly rules: CORSRule[] }
  /** the custom rule was the only rule and no custom origin is left: S3 takes no empty configuration */
  | { readonly action: 'delete' };

/**
 * What to write so that `current` allows exactly `customOrigins` through its custom-domains rule,
 * every other rule untouched; `none` when it already does.
 */
export function planCustomOrigins(
  current: readonly CORSRule[] | undefined,
  customOrigins: readonly string[],
): CorsPlan {
  const want = sorted(customOrigins);
  const have = customOriginsOf(current);
  if (want.length === have.length && want.every((o, i) => o === have[i])) return { action: 'none' };
  const others = (current ?? []).filter((r) => r.ID !== CUSTOM_DOMAINS_RULE_ID);
  const rules = want.length > 0 ? [...others, corsRule(CUSTOM_DOMAINS_RULE_ID, want)] : others;
  return rules.length > 0 ? { action: 'put', rules } : { action: 'delete' };
}
