/**
 * Custom domains and sender email domains (spec §2 domainSettings, §3 pmDomain,
 * domain_status, typedDomain, customDomainOption, §6 "Email domain feature only for business
 * and above"). Pure rules shared by the API and the domain settings page: which host names may
 * be claimed, which plans get what, and the DNS records a user must create.
 */
import { type Role, rolesFrom } from './plans';

/** RFC 1035: 253 characters of a name written without its trailing dot. */
export const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

export type HostRefusal =
  | 'domain_invalid'
  | 'domain_ip'
  | 'domain_wildcard'
  | 'domain_port_or_path'
  | 'domain_too_long'
  | 'domain_product';

export type HostCheck =
  | { readonly ok: true; readonly host: string }
  | { readonly ok: false; readonly code: HostRefusal };

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/u;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/u;

/** Host names a user may never claim whatever the deployment (loopback and unroutable names). */
const RESERVED_SUFFIXES = ['localhost', 'local', 'invalid', 'arpa'];

/**
 * `typed` as the lower-case ASCII (IDNA/punycode) host name it denotes, or why it cannot be a
 * custom domain. `productHosts` are the app's own host names: they, their parent domain and
 * everything under it belong to the product.
 */
export function checkCustomHost(typed: string, productHosts: readonly string[]): HostCheck {
  let raw = typed.trim();
  if (raw.endsWith('.')) raw = raw.slice(0, -1);
  if (raw === '') return { ok: false, code: 'domain_invalid' };
  if (raw.length > MAX_HOST_LENGTH * 4) return { ok: false, code: 'domain_too_long' };
  if (raw.includes('*')) return { ok: false, code: 'domain_wildcard' };
  if (/^[a-z][a-z0-9+.-]*:\/\//iu.test(raw) || /[/:?#@\\]/u.test(raw)) {
    return {
      ok: false,
      code:
        raw.startsWith('[') || (/^[0-9a-f:]+$/iu.test(raw) && raw.includes(':')) ? 'domain_ip' : 'domain_port_or_path',
    };
  }
  if (/[\s%]/u.test(raw) || raw.startsWith('[')) return { ok: false, code: 'domain_invalid' };
  let host: string;
  try {
    // WHATWG URL host parsing: IDNA to punycode, lower case, and IPv4 in any notation
    // (0x7f.1, 2130706433) normalised to dotted quads, the same in Node and the browser.
    host = new URL(`http://${raw}/`).hostname;
  } catch {
    return { ok: false, code: 'domain_invalid' };
  }
  if (IPV4.test(host) || host.startsWith('[')) return { ok: false, code: 'domain_ip' };
  if (host.length > MAX_HOST_LENGTH) return { ok: false, code: 'domain_too_long' };
  const labels = host.split('.');
  if (labels.length < 2) return { ok: false, code: 'domain_invalid' };
  if (labels.some((l) => l.length > MAX_LABEL_LENGTH)) return { ok: false, code: 'domain_too_long' };
  if (!labels.every((l) => LABEL.test(l))) return { ok: false, code: 'domain_invalid' };
  // A top-level label is never all digits (RFC 3696 §2), and 'xn--' labels must be what URL made.
  if (/^\d+$/u.test(labels.at(-1)!)) return { ok: false, code: 'domain_invalid' };
  if (RESERVED_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`))) return { ok: false, code: 'domain_invalid' };
  for (const product of productDomains(productHosts)) {
    if (host === product || host.endsWith(`.${product}`)) return { ok: false, code: 'domain_product' };
  }
  return { ok: true, host };
}

/**
 * The names that are the product's: each app host and its parent domain (app.example.com ->
 * example.com), never a bare top-level label. IP hosts (the local app) name nothing.
 */
export function productDomains(productHosts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const h of productHosts) {
    const host = h.toLowerCase().replace(/\.$/u, '');
    if (!host || IPV4.test(host) || host.startsWith('[') || host === 'localhost') continue;
    out.add(host);
    const labels = host.split('.');
    if (labels.length > 2) out.add(labels.slice(1).join('.'));
  }
  return [...out];
}

/** Plans with a custom link domain: pro and above (docs/decisions/, "Custom domains: plans"). */
const CUSTOM_DOMAIN_ROLES: readonly Role[] = rolesFrom('pro');

export function customDomainInPlan(role: string): boolean {
  return (CUSTOM_DOMAIN_ROLES as readonly string[]).includes(role);
}

/** The ownership TXT record's name for a host. */
export const OWNERSHIP_LABEL = '_sendbridge';
export const ownershipRecordName = (host: string) => `${OWNERSHIP_LABEL}.${host}`;
/** The TXT value holds the claim's token behind this prefix, so a user can tell it apart. */
export const ownershipRecordValue = (token: string) => `sendbridge-verify=${token}`;

/** spec §3 domain_status */
export type DomainStatus = 'pending' | 'verified' | 'failed';

/** Which record a check found missing or wrong. */
export interface RecordProblem {
  readonly record: 'cname' | 'txt';
  readonly state: 'missing' | 'wrong';
  /** what DNS answered instead (a wrong record) */
  readonly found?: string;
}

export interface DnsRecordView {
  readonly type: 'CNAME' | 'TXT';
  readonly name: string;
  readonly value: string;
}

/** spec §2 customDomainOption: links on the product's domain ('standard') or the verified custom one. */
export type CustomDomainOption = 'standard' | 'custom';
export const DEFAULT_CUSTOM_DOMAIN_OPTION: CustomDomainOption = 'standard';

/** A pending claim is checked again on this schedule (ms after creation, doubling up to the cap). */
export const FIRST_CHECK_DELAY_MS = 15 * 60_000;
export const MAX_CHECK_DELAY_MS = 6 * 3_600_000;
/** A claim whose records never check out within this long turns `failed` (Check now still retries). */
export const PENDING_WINDOW_MS = 72 * 3_600_000;

/** When the scheduled job should look at a pending claim again after `failedChecks` failed checks. */
export function nextCheckDelay(failedChecks: number): number {
  return Math.min(MAX_CHECK_DELAY_MS, FIRST_CHECK_DELAY_MS * 2 ** Math.max(0, Math.min(failedChecks, 10)));
}

/** The status after a check: verified when every record is right, failed once the window has passed. */
export function statusAfterCheck(problems: readonly RecordProblem[], createdAt: number, now: number): DomainStatus {
  if (problems.length === 0) return 'verified';
  return now - createdAt > PENDING_WINDOW_MS ? 'failed' : 'pending';
}

// ---- sender email domains (SES Easy DKIM) ------------------------------------------------------

/** spec §3 pmDomain.DKIMUpdateStatus, SES's DkimAttributes.Status values */
export type DkimStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE' | 'NOT_STARTED';

/** Easy DKIM's three CNAMEs: `<token>._domainkey.<domain>` -> `<token>.dkim.amazonses.com`. */
export function dkimRecords(domain: string, tokens: readonly string[]): DnsRecordView[] {
  return tokens.map((t) => ({ type: 'CNAME', name: `${t}._domainkey.${domain}`, value: `${t}.dkim.amazonses.com` }));
}

/** The From of a transfer mail: the sender's name on their verified domain, else on the product's address. */
export function senderFrom(name: string | undefined, productFrom: string, verifiedDomain: string | undefined): string {
  const display = (name ?? '')
    .replace(/[\r\n"\\<>]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
    .slice(0, 64);
  const productAddress = /<([^>]+)>/u.exec(productFrom)?.[1] ?? productFrom.trim();
  const address = verifiedDomain ? `no-reply@${verifiedDomain}` : productAddress;
  return display ? `"${display}" <${address}>` : verifiedDomain ? address : productFrom;
}
