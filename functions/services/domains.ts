/**
 * Domain settings: a custom link domain per account (pro and above), its DNS check
 * (CNAME to the app's edge plus an ownership TXT), the CDN tenant of a verified host, and the
 * sender email domain (business and above) as an SES identity with Easy DKIM. Team members
 * manage neither: their links and mail use their admin's.
 */
import { domainToUnicode } from 'node:url';
import {
  checkCustomHost,
  customDomainInPlan,
  dkimRecords,
  nextCheckDelay,
  ownershipRecordName,
  ownershipRecordValue,
  statusAfterCheck,
  type RecordProblem,
  type HostRefusal,
} from '../domain/custom-domains';
import type { CustomDomainView, DomainSettings, EmailDomainView } from '../domain/domains-api';
import { limitsFor, resolveRole } from '../domain/plans';
import * as claims from '../data/custom-domains';
import * as mailDomains from '../data/email-domains';
import type { UserProfile } from '../data/users';
import { cnamesOf, txtsOf } from '../adapters/dns-check';
import * as identities from '../adapters/email-identities';
import { tenantProvider, type TenantProvider } from '../adapters/cdn-tenants';
import { config } from '../lib/env';
import { customDomainOrigin } from './link-origin';
import { syncBucketCors } from './bucket-cors';
import { ENV } from '../lib/env-names';
import { HttpError, badRequest, conflict, forbidden } from '../lib/errors';
import { newToken } from '../lib/secrets';
import { errorFields, log } from '../lib/log';

// ---- configuration ---------------------------------------------------------------------------

/** What users point their CNAME at (the connection group's routing endpoint in AWS). */
export function cnameTarget(): string {
  const configured = process.env[ENV.customDomainTarget];
  if (configured) return configured.toLowerCase().replace(/\.$/u, '');
  return `edge.${new URL(config().appOrigin).hostname.replace(/^\d+(\.\d+){3}$/u, 'sendbridge.localhost')}`;
}

/** The product's own host names: the app origin's and the CNAME target's. */
function productHosts(): string[] {
  return [new URL(config().appOrigin).hostname, cnameTarget()];
}

const HOST_MESSAGES: Record<HostRefusal, string> = {
  domain_invalid: 'Enter a domain name such as files.example.com.',
  domain_ip: 'Enter a domain name, not an IP address.',
  domain_wildcard: 'Wildcard domains cannot be used.',
  domain_port_or_path: 'Enter the domain name only, without https://, a port or a path.',
  domain_too_long: 'That domain name is too long.',
  domain_product: 'That domain belongs to SendBridge.',
};

function hostOrThrow(typed: string): string {
  const checked = checkCustomHost(typed, productHosts());
  if (!checked.ok) throw badRequest(checked.code, HOST_MESSAGES[checked.code], { field: 'domain' });
  return checked.host;
}

// ---- who may ---------------------------------------------------------------------------------

function assertNotMember(profile: UserProfile): void {
  if (profile.isTeamMember) throw forbidden('team_member_forbidden', "Domains are managed by your team's admin.");
}

const roleOf = (profile: Pick<UserProfile, 'role'>) => resolveRole({ customerRole: profile.role });

function planOf(profile: UserProfile): DomainSettings['plan'] {
  const role = roleOf(profile);
  return { customDomain: customDomainInPlan(role), emailDomain: limitsFor(role).emailDomain };
}

// ---- views -----------------------------------------------------------------------------------

function customView(d: claims.UserDomainRecord): CustomDomainView {
  return {
    typedDomain: d.host,
    displayDomain: domainToUnicode(d.host) || d.host,
    domain_status: d.status,
    records: [
      { type: 'CNAME', name: d.host, value: cnameTarget() },
      { type: 'TXT', name: ownershipRecordName(d.host), value: ownershipRecordValue(d.token) },
    ],
    problems: d.problems,
    createdAt: d.createdAt,
    checkedAt: d.checkedAt ?? null,
    nextCheckAt: d.status === 'pending' ? (d.nextCheckAt ?? null) : null,
    origin: customDomainOrigin(d.host),
  };
}

function emailView(d: mailDomains.UserEmailDomain): EmailDomainView {
  return {
    domain: d.domain,
    pmDomain: { ID: d.domain, DKIMUpdateStatus: d.status },
    records: dkimRecords(d.domain, d.dkimTokens),
    fromAddress: `no-reply@${d.domain}`,
    checkedAt: d.checkedAt ?? null,
  };
}

/** GET /domains */
export async function domainSettings(profile: UserProfile): Promise<DomainSettings> {
  assertNotMember(profile);
  const [custom, email] = await Promise.all([
    claims.getUserDomain(profile.userId),
    mailDomains.getUserEmailDomain(profile.userId),
  ]);
  return {
    customDomain: custom ? customView(custom) : null,
    emailDomain: email ? emailView(email) : null,
    customDomainOption: custom?.status === 'verified' ? 'custom' : 'standard',
    plan: planOf(profile),
  };
}

// ---- custom link domain ----------------------------------------------------------------------

/** PUT /domains/custom */
export async function setCustomDomain(profile: UserProfile, typed: string, now = Date.now()): Promise<DomainSettings> {
  assertNotMember(profile);
  if (!planOf(profile).customDomain)
    throw forbidden('custom_domain_not_in_plan', 'Custom domains come with the Pro plan and above.');
  const host = hostOrThrow(typed);
  const failure = await claims.claimDomain(profile.userId, host, newToken().slice(0, 32), now, now + nextCheckDelay(0));
  if (failure === 'taken') throw conflict('domain_taken', 'That domain is already used by another account.');
  if (failure === 'already_set')
    throw conflict('domain_already_set', 'Remove your current domain before adding another.');
  return domainSettings(profile);
}

/** The CNAME and ownership TXT of a claim, looked up now: what is missing or wrong. */
export async function recordProblems(host: string, token: string): Promise<RecordProblem[]> {
  const [cnames, txts] = await Promise.all([cnamesOf(host), txtsOf(ownershipRecordName(host))]);
  const problems: RecordProblem[] = [];
  const target = cnameTarget();
  if (cnames.length === 0) problems.push({ record: 'cname', state: 'missing' });
  else if (!cnames.includes(target))
    problems.push({ record: 'cname', state: 'wrong', found: cnames[0]!.slice(0, 253) });
  const ours = txts.filter((t) => t.startsWith('sendbridge-verify='));
  if (ours.length === 0) problems.push({ record: 'txt', state: 'missing' });
  else if (!ours.includes(ownershipRecordValue(token)))
    problems.push({ record: 'txt', state: 'wrong', found: ours[0]!.slice(0, 255) });
  return problems;
}

/** Checks one claim and stores the outcome; the tenant of a newly verified host is made at once when it can be. */
async function checkClaim(userId: string, d: claims.UserDomainRecord, now: number): Promise<void> {
  let problems: RecordProblem[];
  try {
    problems = await recordProblems(d.host, d.token);
  } catch (err) {
    // DNS could not be asked (timeout, SERVFAIL): not the user's fault, the next check retries.
    log.warn('domain check: DNS lookup failed', { host: d.host, ...errorFields(err) });
    problems = d.problems.length ? [...d.problems] : [{ record: 'cname', state: 'missing' }];
  }
  const status = statusAfterCheck(problems, d.createdAt, now);
  const failedChecks = status === 'verified' ? 0 : d.failedChecks + 1;
  const saved = await claims.saveCheck(userId, d.host, {
    status,
    problems,
    checkedAt: now,
    nextCheckAt: status === 'pending' ? now + nextCheckDelay(failedChecks) : null,
    failedChecks,
  });
  if (saved && status === 'verified' && d.status !== 'verified' && tenantProvider()?.kind === 'local') {
    // The local provider only writes the table: no reason to make the user wait for the job.
    await syncTenants(10);
  }
}

/** POST /domains/custom/check ("Check now") */
export async function checkCustomDomainNow(profile: UserProfile, now = Date.now()): Promise<DomainSettings> {
  assertNotMember(profile);
  const d = await claims.getUserDomain(profile.userId);
  if (!d) throw new HttpError(404, 'domain_not_found', 'Add a domain first.');
  if (d.status !== 'verified') await checkClaim(profile.userId, d, now);
  return domainSettings(profile);
}

/** DELETE /domains/custom */
export async function removeCustomDomain(profile: UserProfile, now = Date.now()): Promise<DomainSettings> {
  assertNotMember(profile);
  await claims.releaseDomain(profile.userId, now);
  if (tenantProvider()?.kind === 'local') await syncTenants(10);
  return domainSettings(profile);
}

export interface DomainJobResult extends TenantSyncResult {
  checked: number;
  verified: number;
}

/** The scheduled job: due checks of pending claims (with backoff), then the tenant queue. */
export async function runDomainJob(now = Date.now(), limit = 50): Promise<DomainJobResult> {
  let checked = 0;
  let verified = 0;
  for (const due of await claims.dueDomainChecks(now, limit)) {
    const d = await claims.getUserDomain(due.userId);
    if (!d || d.host !== due.host || d.status !== 'pending') continue;
    await checkClaim(due.userId, d, now);
    checked += 1;
    if ((await claims.getUserDomain(due.userId))?.status === 'verified') verified += 1;
  }
  const tenants = await syncTenants(limit);
  return { checked, verified, ...tenants };
}

export interface TenantSyncResult {
  tenantsCreated: number;
  tenantsDeleted: number;
  /** buckets whose custom-domains CORS rule was rewritten */
  bucketsCorsUpdated: number;
}

/**
 * Creates the tenants of verified hosts and deletes those of released ones, then lets every
 * bucket's CORS allow exactly the hosts served (a page on a custom host uploads straight to S3).
 * The provider is the local one unless the caller hands in another (the tenant job: CloudFront's).
 */
export async function syncTenants(
  limit: number,
  provider: TenantProvider | undefined = tenantProvider(),
): Promise<TenantSyncResult> {
  let tenantsCreated = 0;
  let tenantsDeleted = 0;
  if (!provider) return { tenantsCreated, tenantsDeleted, bucketsCorsUpdated: 0 };
  for (const t of await claims.queuedTenants(limit)) {
    try {
      if (t.want === 'present') {
        const made = await provider.create(t.host);
        if (await claims.tenantCreated(t.host, made.tenantId, made.etag)) tenantsCreated += 1;
      } else if (!t.tenantId || (await provider.remove(t.host, t.tenantId)) === 'deleted') {
        await claims.tenantDeleted(t.host);
        tenantsDeleted += 1;
      }
    } catch (err) {
      log.error('domain tenant not synced', { host: t.host, want: t.want, ...errorFields(err) });
    }
  }
  const cors = await syncBucketCors();
  return { tenantsCreated, tenantsDeleted, bucketsCorsUpdated: cors.updated };
}

// ---- sender email domain ---------------------------------------------------------------------

function assertEmailPlan(profile: UserProfile): void {
  if (!planOf(profile).emailDomain)
    throw forbidden(
      'email_domain_not_in_plan',
      'Sending from your own email domain comes with the Business plan and above.',
    );
}

/** PUT /domains/email */
export async function setEmailDomain(profile: UserProfile, typed: string, now = Date.now()): Promise<DomainSettings> {
  assertNotMember(profile);
  assertEmailPlan(profile);
  const domain = hostOrThrow(typed);
  const failure = await mailDomains.claimEmailDomain(profile.userId, domain, now);
  if (failure === 'taken')
    throw conflict('email_domain_taken', 'That email domain is already used by another account.');
  if (failure === 'already_set')
    throw conflict('email_domain_already_set', 'Remove your current email domain before adding another.');
  try {
    const identity = await identities.createIdentity(domain, now);
    await mailDomains.saveEmailDomainState(profile.userId, domain, identity.dkimTokens, identity.status, now);
  } catch (err) {
    // No half-made domain: the user can try again.
    await mailDomains
      .releaseEmailDomain(profile.userId)
      .catch((e: unknown) => log.error('email domain rollback failed', errorFields(e)));
    throw err;
  }
  return domainSettings(profile);
}

/** POST /domains/email/check: the identity's DKIM status now. */
export async function checkEmailDomainNow(profile: UserProfile, now = Date.now()): Promise<DomainSettings> {
  assertNotMember(profile);
  const mine = await mailDomains.getUserEmailDomain(profile.userId);
  if (!mine) throw new HttpError(404, 'email_domain_not_found', 'Add an email domain first.');
  const identity = await identities.getIdentity(mine.domain);
  if (identity)
    await mailDomains.saveEmailDomainState(profile.userId, mine.domain, identity.dkimTokens, identity.status, now);
  return domainSettings(profile);
}

/** DELETE /domains/email */
export async function removeEmailDomain(profile: UserProfile): Promise<DomainSettings> {
  assertNotMember(profile);
  const domain = await mailDomains.releaseEmailDomain(profile.userId);
  if (domain) await identities.deleteIdentity(domain);
  return domainSettings(profile);
}
