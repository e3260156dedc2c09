/**
 * The sign-up request of spec §3 (POST /signup2) as the browser builds it: the proof of the
 * email, the account fields, and the context the product records (language, referrer,
 * chosen plan, a browser fingerprint). Values are cut to the schema's limits so an unusual
 * browser can never fail validation.
 */
import type { SignupInput } from '@domain/auth-api';
import type { SignupRole } from './register-steps';

export interface BrowserContext {
  readonly navigator: Pick<Navigator, 'language' | 'userAgent' | 'vendor' | 'platform'> & {
    readonly userAgentData?: { readonly platform?: string };
  };
  readonly timeZone: string | undefined;
  readonly referrer: string;
}

export type Fingerprint = NonNullable<SignupInput['fingerprint']>;

const cut = (value: string | undefined, max: number): string | undefined => (value ? value.slice(0, max) : undefined);

export function browserFingerprint(context: BrowserContext): Fingerprint {
  const nav = context.navigator;
  return {
    language: cut(nav.language, 64),
    userAgent: cut(nav.userAgent, 1024),
    browserVendor: cut(nav.vendor, 256),
    // navigator.platform is frozen in newer browsers; User-Agent Client Hints carry the real one.
    platform: cut(nav.userAgentData?.platform || nav.platform, 256),
    timezone: cut(context.timeZone, 128),
  };
}

export function currentBrowser(): BrowserContext {
  return {
    navigator,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    referrer: document.referrer,
  };
}

export interface SignupFields {
  readonly registrationToken: string;
  readonly email: string;
  readonly fullName: string;
  readonly password: string;
  readonly company?: string;
  readonly role: SignupRole;
  readonly lang: string;
}

export function signupBody(fields: SignupFields, context: BrowserContext): SignupInput {
  const company = fields.company?.trim();
  return {
    registrationToken: fields.registrationToken,
    email: fields.email,
    fullName: fields.fullName.trim(),
    password: fields.password,
    ...(company ? { company } : {}),
    lang: fields.lang.slice(0, 16),
    ...(context.referrer ? { referrer: context.referrer.slice(0, 2048) } : {}),
    role: fields.role,
    fingerprint: browserFingerprint(context),
  };
}

/**
 * The signup modal asks only for email and password (spec §2) but an account needs a name:
 * the address's local part, split into capitalised words ("jane.doe" -> "Jane Doe"). The
 * user can change it on the Profile screen.
 */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  const words = local
    .split(/[._+\-\s]+/u)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  const name = words.join(' ').slice(0, 200);
  return name === '' ? email.slice(0, 200) : name;
}
