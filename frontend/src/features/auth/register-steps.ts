/**
 * Registration steps (spec §2, §4): 1 email, 2 code, 3 account details. The step is in the
 * query; what the visitor proved so far lives in sessionStorage, so a reload stays on its step
 * and closing the tab forgets it.
 */
import { ROLES, type Role } from '@domain/plans';

export type RegisterStep = 1 | 2 | 3;

export interface Registration {
  readonly email: string;
  /** proof of the email (POST /newsignupverify/check or an already verified address) */
  readonly registrationToken?: string;
}

export const REGISTRATION_STORAGE_KEY = 'sb_registration';

/** A missing or odd step is step 1. */
export function parseStep(raw: string | null): RegisterStep {
  const step = Number(raw);
  return step === 2 || step === 3 ? step : 1;
}

/**
 * Spec §2: step 2 or more without an email returns to step 1; step 3 or more without a
 * verified email returns to step 2. Spec §4: a verified email at step 1 goes straight to step 3.
 */
export function guardStep(requested: RegisterStep, registration: Registration | null): RegisterStep {
  const email = registration?.email ?? '';
  const verified = email !== '' && Boolean(registration?.registrationToken);
  if (requested === 1) return verified ? 3 : 1;
  if (email === '') return 1;
  if (requested === 3 && !verified) return 2;
  return requested;
}

export type SignupRole = Exclude<Role, 'anon' | 'premium'>;

/** Plans one can sign up for; anon is no plan and premium is a package offered at checkout. */
export const SIGNUP_ROLES = ROLES.filter((r): r is SignupRole => r !== 'anon' && r !== 'premium');

/** The plan chosen on Pricing (?plan=), free when missing or unknown. */
export function parsePlan(raw: string | null): SignupRole {
  const value = raw?.trim().toLowerCase();
  return (SIGNUP_ROLES as readonly (string | undefined)[]).includes(value) ? (value as SignupRole) : 'free';
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function loadRegistration(storage: KeyValueStorage | null): Registration | null {
  try {
    const raw = storage?.getItem(REGISTRATION_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { email?: unknown; registrationToken?: unknown };
    if (typeof value.email !== 'string' || value.email === '') return null;
    return typeof value.registrationToken === 'string' && value.registrationToken !== ''
      ? { email: value.email, registrationToken: value.registrationToken }
      : { email: value.email };
  } catch {
    return null;
  }
}

export function saveRegistration(storage: KeyValueStorage | null, registration: Registration | null): void {
  try {
    if (registration) storage?.setItem(REGISTRATION_STORAGE_KEY, JSON.stringify(registration));
    else storage?.removeItem(REGISTRATION_STORAGE_KEY);
  } catch {
    // Blocked or full storage: the steps still work until a reload.
  }
}
