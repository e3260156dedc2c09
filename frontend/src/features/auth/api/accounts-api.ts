/**
 * Calls of the sign-up and password-reset screens (functions/domain/auth-api.ts). Log in,
 * renewal and log out belong to the session store (lib/session).
 */
import type { AuthResponse, RegistrationProof, RegistrationStart, SignupInput } from '@domain/auth-api';
import { apiFetch } from '@/lib/api';

/**
 * Step 1: mails a code (verified:false), or accepts `registrationToken`, this browser's earlier
 * proof for the same address, and answers verified:true. 409 email_taken.
 */
export function startRegistration(
  email: string,
  lang: string,
  registrationToken?: string,
  signal?: AbortSignal,
): Promise<RegistrationStart> {
  const body = registrationToken ? { email, lang, registrationToken } : { email, lang };
  return apiFetch<RegistrationStart>('/newsignupverify', { method: 'POST', body, signal });
}

/** Step 2: 403 incorrect_code. */
export function checkRegistrationCode(email: string, code: string, signal?: AbortSignal): Promise<RegistrationProof> {
  return apiFetch<RegistrationProof>('/newsignupverify/check', { method: 'POST', body: { email, code }, signal });
}

/** Step 3: creates the account; the answer carries the session and sets the refresh cookie. */
export function signup(body: SignupInput, signal?: AbortSignal): Promise<AuthResponse> {
  return apiFetch<AuthResponse>('/signup2', { method: 'POST', body, signal });
}

/** Always the same answer, whether or not the address has an account. */
export function requestResetLink(email: string, lang: string, signal?: AbortSignal): Promise<{ message?: string }> {
  return apiFetch<{ message?: string }>('/resetPasswordLink', { method: 'POST', body: { email, lang }, signal });
}

/** Resolves (202) when the reset token is usable; rejects with ApiError (410) when not. */
export async function checkResetToken(token: string, signal?: AbortSignal): Promise<void> {
  await apiFetch<unknown>('/passTokenCheck', { method: 'POST', body: { token }, signal });
}

export async function resetPassword(token: string, password: string, signal?: AbortSignal): Promise<void> {
  await apiFetch<unknown>('/resetPassword', { method: 'POST', body: { token, password }, signal });
}
