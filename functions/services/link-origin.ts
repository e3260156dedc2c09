/**
 * Where a signed-in sender's links point and whom their transfer mail comes from:
 * every link to a transfer (the link-mode link, the mails, the dashboard's copy-link) is built
 * on linkOriginOf, so a verified custom domain applies everywhere at once. Kept apart from
 * services/domains.ts so the transfer functions carry only these reads.
 */
import { customDomainInPlan, senderFrom } from '../domain/custom-domains';
import { limitsFor, resolveRole } from '../domain/plans';
import { getUserDomain } from '../data/custom-domains';
import { getUserEmailDomain } from '../data/email-domains';
import { getProfile } from '../data/users';
import { config } from '../lib/env';
import { ENV } from '../lib/env-names';
import { errorFields, log } from '../lib/log';

const roleOf = (profile: { readonly role?: string }) => resolveRole({ customerRole: profile.role });

/** The origin of a verified host: `https://{host}` in AWS, `http://{host}:<web port>` locally. */
export function customDomainOrigin(host: string): string {
  const template = process.env[ENV.customDomainOrigin] || 'https://{host}';
  return template.replace('{host}', host).replace(/\/+$/u, '');
}

// ---- links -----------------------------------------------------------------------------------

/**
 * THE origin of a signed-in sender's links: the storage owner's (the team admin's for
 * members) verified custom domain while their plan includes it, else APP_ORIGIN. Guests: APP_ORIGIN.
 */
export async function linkOriginFor(ownerId: string | undefined): Promise<string> {
  const fallback = config().appOrigin;
  if (!ownerId || ownerId.startsWith('guest:')) return fallback;
  try {
    const [d, owner] = await Promise.all([getUserDomain(ownerId), getProfile(ownerId)]);
    if (d?.status === 'verified' && owner && customDomainInPlan(roleOf(owner))) return customDomainOrigin(d.host);
  } catch (err) {
    // A link on the product's domain always works: never fail a send over the lookup.
    log.warn('link origin lookup failed', errorFields(err));
  }
  return fallback;
}

/** The transfer's link origin, from its storage owner (signed-in sends only). */
export function linkOriginOf(t: {
  readonly anon: boolean;
  readonly storageOwner?: string;
  readonly senderId?: string;
}): Promise<string> {
  return t.anon ? Promise.resolve(config().appOrigin) : linkOriginFor(t.storageOwner ?? t.senderId);
}

/**
 * The From of a signed-in sender's transfer mail: their name on their (or their admin's)
 * verified sender domain while the plan includes it, else their name on the product's address.
 */
export async function senderFromOf(t: {
  readonly anon: boolean;
  readonly storageOwner?: string;
  readonly senderId?: string;
  readonly senderName?: string;
}): Promise<string | undefined> {
  if (t.anon) return undefined;
  const productFrom = config().mailFrom;
  const ownerId = t.storageOwner ?? t.senderId;
  let domain: string | undefined;
  if (ownerId) {
    try {
      const [mine, owner] = await Promise.all([getUserEmailDomain(ownerId), getProfile(ownerId)]);
      if (mine?.status === 'SUCCESS' && owner && limitsFor(roleOf(owner)).emailDomain) domain = mine.domain;
    } catch (err) {
      log.warn('sender domain lookup failed', errorFields(err));
    }
  }
  return senderFrom(t.senderName, productFrom, domain);
}
