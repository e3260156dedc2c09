import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { BackIcon, RefreshIcon } from '@/components/send-icons';
import { GUEST_CODE_LENGTH, useVerifyCode } from './use-verify-code';

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
  const id = useId();
  const { code, type, checking, error, resending, resent, box, verify, resend } = useVerifyCode(
    email,
    lang,
    onVerified,
  );
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
        onChange={(e) => type(e.target.value)}
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
