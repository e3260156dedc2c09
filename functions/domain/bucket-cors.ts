/**
 * The buckets' CORS configuration (architecture §1): the browser uploads and downloads straight
 * to S3, so each bucket allows the app's origins, and (issue 15) the origins of the verified
 * custom domains the app is served on. Two rules, told apart by their ID:
 * - `app-origins`: the deployment's app origins, owned by the StorageStack (CDK) and, locally,
 *   by the emulator's start-up configuration;
 * - `custom-domains`: the verified custom hosts, owned by the tenant job, which rewrites only this
 *   rule and keeps every other rule as it found it (byte for byte).
 * Pure text (read by the StorageStack, the local emulator's start-up and services/bucket-cors.ts,
 * which reads and writes the buckets).
 */
import { BUCKET_CORS } from '../routes';
import { decodeXmlText, escapeXmlText, xmlBlocks, xmlText } from '../lib/aws/xml';

export const APP_ORIGINS_RULE_ID = 'app-origins';
export const CUSTOM_DOMAINS_RULE_ID = 'custom-domains';

/**
 * S3 takes a CORS configuration of at most 64 KB; one custom origin costs about 60 bytes, so a
 * deployment's bucket CORS holds about a thousand custom domains with room to spare. Past this
 * count the job keeps the configuration it has and logs why (docs/deploy.md).
 */
export const MAX_CUSTOM_ORIGINS = 900;

/** One `<CORSRule>` (inner XML included) with the product's methods and headers. */
export function corsRuleXml(id: string, origins: readonly string[]): string {
  const inner = [
    `<ID>${escapeXmlText(id)}</ID>`,
    ...origins.map((o) => `<AllowedOrigin>${escapeXmlText(o)}</AllowedOrigin>`),
    ...BUCKET_CORS.allowMethods.map((m) => `<AllowedMethod>${m}</AllowedMethod>`),
    ...BUCKET_CORS.allowHeaders.map((h) => `<AllowedHeader>${escapeXmlText(h)}</AllowedHeader>`),
    ...BUCKET_CORS.exposeHeaders.map((h) => `<ExposeHeader>${escapeXmlText(h)}</ExposeHeader>`),
    `<MaxAgeSeconds>${BUCKET_CORS.maxAgeSeconds}</MaxAgeSeconds>`,
  ].join('');
  return `<CORSRule>${inner}</CORSRule>`;
}

export function corsConfigurationXml(rules: readonly string[]): string {
  return `<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${rules.join('')}</CORSConfiguration>`;
}

/** The start-up configuration of a bucket: the app origins' rule only. */
export function appCorsXml(appOrigins: readonly string[]): string {
  return corsConfigurationXml([corsRuleXml(APP_ORIGINS_RULE_ID, appOrigins)]);
}

const sorted = (origins: Iterable<string>) => [...new Set(origins)].sort();

/** The origins the custom-domains rule of a configuration allows (none when it has no such rule). */
export function customOriginsOf(configXml: string | undefined): string[] {
  if (!configXml) return [];
  const rule = xmlBlocks(configXml, 'CORSRule').find((r) => xmlText(r, 'ID') === CUSTOM_DOMAINS_RULE_ID);
  return rule ? sorted(xmlBlocks(rule, 'AllowedOrigin').map(decodeXmlText)) : [];
}

export type CorsPlan =
  | { readonly action: 'none' }
  | { readonly action: 'put'; readonly xml: string }
  /** the custom rule was the only rule and no custom origin is left: S3 takes no empty configuration */
  | { readonly action: 'delete' };

/**
 * What to write so that `current` allows exactly `customOrigins` through its custom-domains rule,
 * every other rule untouched; `none` when it already does.
 */
export function planCustomOrigins(current: string | undefined, customOrigins: readonly string[]): CorsPlan {
  const want = sorted(customOrigins);
  const have = customOriginsOf(current);
  if (want.length === have.length && want.every((o, i) => o === have[i])) return { action: 'none' };
  const others = current
    ? [...current.matchAll(/<CORSRule(?:\s[^>]*)?>[\s\S]*?<\/CORSRule>/gu)].map((m) => m[0]).filter((r) => xmlText(r, 'ID') !== CUSTOM_DOMAINS_RULE_ID)
    : [];
  const rules = want.length > 0 ? [...others, corsRuleXml(CUSTOM_DOMAINS_RULE_ID, want)] : others;
  return rules.length > 0 ? { action: 'put', xml: corsConfigurationXml(rules) } : { action: 'delete' };
}
