/**
 * Domain settings (spec §2 domainSettings, §3 pmDomain {ID, DKIMUpdateStatus},
 * domain_status, typedDomain, customDomainOption). The contract between the API, the page
 * /dash/account/domain and the tests. Every route is the caller's own (JWT 'self'); team
 * members are refused (403 team_member_forbidden): their links use their admin's domain.
 *
 *   GET    /domains                 the caller's custom and email domains      -> 200 DomainSettings
 *   PUT    /domains/custom          { domain } claim a link domain             -> 200 DomainSettings
 *                                   400 domain_invalid | domain_ip | domain_wildcard | domain_port_or_path
 *                                       | domain_too_long | domain_product, 403 custom_domain_not_in_plan,
 *                                   409 domain_taken (another account's) | domain_already_set (remove yours first)
 *   POST   /domains/custom/check    check its DNS records now                  -> 200 DomainSettings
 *   DELETE /domains/custom          release the claim                          -> 200 DomainSettings
 *   PUT    /domains/email           { domain } sender domain (business+)       -> 200 DomainSettings
 *                                   403 email_domain_not_in_plan, 409 email_domain_taken | email_domain_already_set
 *   POST   /domains/email/check     ask SES for the DKIM status now            -> 200 DomainSettings
 *   DELETE /domains/email           delete the identity                        -> 200 DomainSettings
 */
import * as z from 'zod/mini';
import type { CustomDomainOption, DkimStatus, DnsRecordView, DomainStatus, RecordProblem } from './custom-domains';

/** Long enough for any host name a user could mean (253) typed with a scheme or spaces around it. */
export const domainBodySchema = z.object({ domain: z.string().check(z.minLength(1), z.maxLength(1024)) });
export type DomainBody = z.input<typeof domainBodySchema>;

export interface CustomDomainView {
  /** spec §3 typedDomain: the host as claimed (lower-case, punycode) */
  readonly typedDomain: string;
  /** the same host for display (Unicode when it is an IDN) */
  readonly displayDomain: string;
  /** spec §3 domain_status */
  readonly domain_status: DomainStatus;
  /** the records to create at the DNS host */
  readonly records: readonly DnsRecordView[];
  /** what the last check found missing or wrong */
  readonly problems: readonly RecordProblem[];
  readonly createdAt: number;
  readonly checkedAt: number | null;
  /** when the scheduled check looks again (pending claims) */
  readonly nextCheckAt: number | null;
  /** the origin links use once verified, e.g. https://files.acme.com */
  readonly origin: string;
}

export interface EmailDomainView {
  readonly domain: string;
  /** spec §3 pmDomain: the SES identity and its DKIM status */
  readonly pmDomain: { readonly ID: string; readonly DKIMUpdateStatus: DkimStatus };
  readonly records: readonly DnsRecordView[];
  /** the From address transfer mails use once verified */
  readonly fromAddress: string;
  readonly checkedAt: number | null;
}

export interface DomainSettings {
  readonly customDomain: CustomDomainView | null;
  readonly emailDomain: EmailDomainView | null;
  /** spec §2 customDomainOption: 'standard' until the custom domain is verified */
  readonly customDomainOption: CustomDomainOption;
  /** what the caller's plan includes (the page shows the upgrade path otherwise) */
  readonly plan: { readonly customDomain: boolean; readonly emailDomain: boolean };
}
