/**
 * What an account screen says about a failed call (spec §8). Known answers map to the spec's
 * texts (auth.errors.*); no answer at all, or a server fault, is 'Connection trouble'; any
 * other refusal is told by its stable code (i18n/error-keys.ts), never by the English message.
 */
import { errorTextOf, type ErrorText } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';

export type AuthErrorKey =
  | 'authFailed'
  | 'connectionTrouble'
  | 'emailTaken'
  | 'incorrectCode'
  | 'incorrectCodeModal'
  | 'resetLinkInvalid'
  | 'registrationExpired';

export type AuthErrorText = { readonly key: AuthErrorKey } | { readonly text: ErrorText };

/** `byStatus` names the spec's text for the statuses this call can answer with. */
export function authErrorText(
  err: unknown,
  byStatus: Readonly<Partial<Record<number, AuthErrorKey>>> = {},
): AuthErrorText {
  if (!(err instanceof ApiError) || err.isNetwork || err.status >= 500) return { key: 'connectionTrouble' };
  const key = byStatus[err.status];
  if (key) return { key };
  return { text: errorTextOf(err) };
}
