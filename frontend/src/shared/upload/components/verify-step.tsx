import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RESEND_LOCK_MS } from '@domain/ui-timings';
import { ApiError } from '@/lib/api';
import { errorTextOf } from '@/i18n/error-keys';
import { useShake } from '@/lib/use-shake';
import { checkSenderCode, requestSenderCode } from '../send-api';
import { BackIcon, RefreshIcon } from '@/components/send-icons';

export const GUEST_CODE_LENGTH = 5;

/** What the code box keeps of typed or pasted text: digits only, at most 5. */
export function sanitizeGuestCode(text: string): string {
  return text.replace(/\D/gu, '').slice(0, GUEST_CODE_LENGTH);
}

interface VerifyStepProps {
  readonly email: string;
  readonly lang: string;
  onVerified(senderToken: string): void;
  onBack(): void;
}

/**
 * Guest sender verification (spec §2, §4): a code is mailed on entering the step, Verify is
 * enabled at 5 characters, a wrong code shakes the box, Resend spins and locks for 2 s.
 */
export function VerifyStep({ email, lang, onVerified, onBack }: VerifyStepProps) {
  const { t } = useTranslation();
  // by the answer's code, never its English message
  const apiText = (err: ApiError) => {
    const text = errorTextOf(err);
    return t(text.key, text.params);
  };
  const id = useId();
  const shake = useShake();
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const [resent, setResent] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  const sent = useRef(false);
  const live = useRef(true);

  const sendCode = async () => {
    try {
      await requestSenderCode(email, lang);
      return true;
    } catch (err) {
      if (live.current)
        setError(err instanceof ApiError && !err.isNetwork ? apiText(err) : t('send.toast.connectionTrouble'));
      return false;
    }
  };

  useEffect(() => {
    live.current = true;
    // Once per visit to the step, also under StrictMode's double effects.
    if (!sent.current) {
      sent.current = true;
      void sendCode();
    }
    box.current?.focus();
    return () => {
      live.current = false;
    };
  }, []);

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== GUEST_CODE_LENGTH || checking) return;
    setChecking(true);
    setError(null);
    try {
      const { senderToken } = await checkSenderCode(email, code);
      if (live.current) onVerified(senderToken);
    } catch (err) {
      if (!live.current) return;
      setChecking(false);
      if (err instanceof ApiError && err.status === 403) setError(t('send.verify.incorrect'));
      else setError(err instanceof ApiError && !err.isNetwork ? apiText(err) : t('send.toast.connectionTrouble'));
      shake(box.current);
    }
  };

  const resend = async () => {
    if (resending) return;
    setResending(true);
    setResent(false);
    setError(null);
    const started = Date.now();
    const ok = await sendCode();
    // The spinner turns and the button stays locked for 2 s even when the answer is quicker.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, RESEND_LOCK_MS - (Date.now() - started))));
    if (!live.current) return;
    setResending(false);
    setResent(ok);
  };

  const problemId = `${id}-problem`;
  return (
    <form className="qs-verify" onSubmit={verify} noValidate aria-labelledby={`${id}-title`}>
      <div className="qs-step-head">
        <button
          type="button"
          className="qs-icon-button qs-back"
          aria-label={t('send.verify.back')}
          onClick={onBack}
          data-testid="verify-back"
        >
          <BackIcon />
        </button>
        <h2 id={`${id}-title`} className="qs-title" tabIndex={-1} data-step-heading>
          {t('send.verify.title')}
        </h2>
      </div>
      <p className="qs-lead">{t('send.verify.body', { email })}</p>
      <label htmlFor={`${id}-code`} className="qs-label">
        {t('send.verify.codeLabel')}
      </label>
      <input
        ref={box}
        id={`${id}-code`}
        className={`qs-input qs-code${error ? ' qs-input-invalid' : ''}`}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        value={code}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? problemId : undefined}
        onChange={(e) => {
          setCode(sanitizeGuestCode(e.target.value));
          setError(null);
        }}
        data-testid="code-input"
      />
      <p id={problemId} className="qs-field-error" role="alert">
        {error ?? ''}
      </p>
      <button
        type="submit"
        className="btn btn-primary btn-block"
        disabled={code.length !== GUEST_CODE_LENGTH || checking}
        data-testid="verify-button"
      >
        {checking ? t('send.verify.verifying') : t('send.verify.verify')}
      </button>
      <p className="qs-resend">
        <span>{t('send.verify.noCode')}</span>{' '}
        <button
          type="button"
          className="qs-link-button"
          onClick={resend}
          disabled={resending}
          aria-busy={resending}
          data-testid="resend-code"
        >
          <RefreshIcon className={resending ? 'qs-spin' : undefined} /> {t('send.verify.resend')}
        </button>
      </p>
      <p className="qs-hint" role="status">
        {resent ? t('send.verify.resent') : ''}
      </p>
    </form>
  );
}
