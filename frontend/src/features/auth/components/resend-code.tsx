import { useTranslation } from 'react-i18next';
import type { RegistrationStart } from '@domain/auth-api';
import { startRegistration } from '../api/accounts-api';
import { authErrorText, type AuthErrorText } from '../auth-errors';
import { useResendLock } from '../hooks/use-resend-lock';
import { RefreshIcon } from './auth-icons';

/**
 * Mails the registration code again (spec §4, §5) behind the 2 s resend lock; a failure goes to
 * `setFailure`, and `onStarted` sees the answer (it may say the email was proven meanwhile).
 */
export function useRegistrationResend(
  email: string,
  setFailure: (failure: AuthErrorText | null) => void,
  onStarted?: (start: RegistrationStart) => void,
): ReturnType<typeof useResendLock> {
  const { i18n } = useTranslation();
  return useResendLock(async () => {
    setFailure(null);
    try {
      const start = await startRegistration(email, i18n.resolvedLanguage ?? 'en');
      onStarted?.(start);
      return true;
    } catch (err) {
      setFailure(authErrorText(err));
      return false;
    }
  });
}

interface ResendCodeProps {
  /** what the code step is doing right now (checking, creating the account), shown instead of 'sent again' */
  readonly working: string | null;
  readonly lock: ReturnType<typeof useResendLock>;
  readonly testId: string;
}

/** Under the code boxes: the status line and 'Didn't get a code? Resend' (spinning while locked). */
export function ResendCode({ working, lock: { locked, resent, resend }, testId }: ResendCodeProps) {
  const { t } = useTranslation();
  return (
    <>
      <p className="auth-hint" role="status">
        {working ?? (resent ? t('auth.register.resent') : '')}
      </p>
      <p className="auth-resend">
        <span>{t('auth.register.noCode')}</span>{' '}
        <button
          type="button"
          className="auth-link-button"
          onClick={resend}
          disabled={locked}
          aria-busy={locked}
          data-testid={testId}
        >
          <RefreshIcon className={locked ? 'auth-spin' : undefined} /> {t('auth.register.resend')}
        </button>
      </p>
    </>
  );
}
