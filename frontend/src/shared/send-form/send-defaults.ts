/**
 * The defaults of a signed-in sender's new send (transferSettings saved on /dash/settings).
 * It lives with the dashboard (not in features/send, whose modules form the home page's
 * quick-send chunk), so the home page does not carry it.
 */
import { CUSTOM_DATE_MARKER, DEFAULT_EXPIRY_SECONDS, isExpiryAllowed } from '@domain/expiry';
import { MESSAGE_MAX_LENGTH, type SendAs } from '@domain/validation';
import type { SendForm, SenderContext } from '@/shared/send-form/send-state';

/** What a signed-in sender's new form starts with, over initialForm's values. */
export type SendDefaults = Pick<SendForm, 'expirySeconds' | 'sendAs' | 'message'>;

/**
 * The defaults of /dash/settings a new send starts with; a saved expiry the plan no longer
 * allows (after a downgrade) falls back to 1 Week, link mode only for signed-in senders.
 */
export function sendDefaultsOf(settings: Partial<SendDefaultsSource> | undefined, sender: SenderContext): SendDefaults {
  const expiry = settings?.defaultExpirySeconds;
  return {
    expirySeconds:
      expiry !== undefined && expiry !== CUSTOM_DATE_MARKER && isExpiryAllowed(sender.role, expiry)
        ? expiry
        : DEFAULT_EXPIRY_SECONDS,
    sendAs: settings?.defaultSendAs === 'link' && sender.signedIn ? 'link' : 'email',
    message: (settings?.defaultMessage ?? '').slice(0, MESSAGE_MAX_LENGTH),
  };
}

interface SendDefaultsSource {
  readonly defaultExpirySeconds: number;
  readonly defaultSendAs: SendAs;
  readonly defaultMessage: string;
}
