/**
 * What the browser remembers about a guest sender (spec §3 local values, §4): how many times
 * they sent and the email they sent from, to prefill the form next time.
 */
import { isValidEmail } from '@domain/input-rules';

export const SEND_TIMES_KEY = 'sendTimes';
export const SENDER_EMAIL_KEY = 'senderEmail';

/** localStorage, or null where it is unavailable (blocked cookies, some private modes). */
export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function sendTimes(storage: Storage | null = browserStorage()): number {
  const value = Number(safeGet(storage, SEND_TIMES_KEY));
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export function rememberedSenderEmail(storage: Storage | null = browserStorage()): string {
  const value = safeGet(storage, SENDER_EMAIL_KEY) ?? '';
  return isValidEmail(value) ? value : '';
}

/** After a guest send: one more send, and this sender's email for next time. */
export function rememberGuestSend(senderEmail: string, storage: Storage | null = browserStorage()): void {
  if (!storage) return;
  try {
    storage.setItem(SEND_TIMES_KEY, String(sendTimes(storage) + 1));
    const email = senderEmail.trim().toLowerCase();
    if (isValidEmail(email)) storage.setItem(SENDER_EMAIL_KEY, email);
  } catch {
    // Quota or privacy mode: remembering is a convenience, the send itself succeeded.
  }
}

function safeGet(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
