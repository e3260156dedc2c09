/** Free mail providers, skipped when guessing a company (logo) from an email's domain (spec §7, §9). */

export const COMMON_MAIL_DOMAINS = [
  'gmail',
  'hotmail',
  'yahoo',
  'outlook',
  'aol',
  'protonmail',
  'icloud',
  'live',
  'ymail',
] as const;

/**
 * The spec lists providers without a suffix, so the first label of the domain is compared:
 * 'yahoo.co.uk' and 'hotmail.fr' are common, 'live-events.com' is not.
 */
export function isCommonMailDomain(domain: string): boolean {
  const first = domain.trim().toLowerCase().split('.')[0] ?? '';
  return (COMMON_MAIL_DOMAINS as readonly string[]).includes(first);
}

/** The lower-cased part after an address's last '@', or null when nothing stands before it. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

/** The company domain of an email, or null for a free provider or a malformed address. */
export function companyDomainOf(email: string): string | null {
  const domain = emailDomainOf(email);
  if (domain === null || !domain.includes('.') || isCommonMailDomain(domain)) return null;
  return domain;
}
