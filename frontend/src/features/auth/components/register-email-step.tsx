import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { startRegistration } from '../api/accounts-api';
import { useAuthAction } from '../hooks/use-auth-action';
import { emailProblem, normalisedEmail } from '../field-problems';
import { useShake } from '../hooks/use-shake';
import { useAuthErrorText } from './error-text';
import { SubmitButton, TakenEmailSignIn } from './form-parts';

interface EmailStepProps {
  readonly initialEmail: string;
  /** the proof this browser holds for initialEmail, if any: the server then skips the code */
  readonly knownProof?: string;
  onCodeSent(email: string): void;
  onAlreadyVerified(email: string, registrationToken: string): void;
}

/**
 * Step 1 (spec §5): Continue stays disabled while the email is invalid or a request is under
 * way. A taken address (409) says so with a Sign In link, shakes the field and focuses it.
 */
export function EmailStep({ initialEmail, knownProof, onCodeSent, onAlreadyVerified }: EmailStepProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const shake = useShake();
  const errorText = useAuthErrorText();
  const [email, setEmail] = useState(initialEmail);
  const [touched, setTouched] = useState(false);
  const { busy, failure, setFailure, run } = useAuthAction();
  const field = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const problem = emailProblem(email);

  useEffect(() => input.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || problem) return;
    const address = normalisedEmail(email);
    setFailure(null);
    await run(
      async () => {
        const start = await startRegistration(
          address,
          i18n.resolvedLanguage ?? 'en',
          address === initialEmail ? knownProof : undefined,
        );
        if (start.verified && start.registrationToken) onAlreadyVerified(address, start.registrationToken);
        else onCodeSent(address);
      },
      { 409: 'emailTaken' },
      () => shake(field.current, input.current),
    );
  };

  // After leaving the field, a typed but invalid address says why Continue is off.
  const shownProblem = touched && email.trim() !== '' ? problem : null;

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="auth-subtitle">
        {t('auth.register.emailHeading')}
      </h2>
      <div className={`auth-field${failure ? ' auth-field-invalid' : ''}`} ref={field}>
        <label htmlFor={`${id}-email`}>{t('auth.fields.workEmail')}</label>
        <input
          ref={input}
          id={`${id}-email`}
          className="account-input"
          type="email"
          autoComplete="email"
          value={email}
          aria-invalid={failure || shownProblem ? true : undefined}
          aria-describedby={`${id}-hint ${id}-problem`}
          onChange={(e) => {
            setEmail(e.target.value);
            setFailure(null);
          }}
          onBlur={() => setTouched(true)}
          data-testid="register-email"
        />
        <p id={`${id}-hint`} className="auth-hint">
          {t('auth.register.emailHint')}
        </p>
        <p id={`${id}-problem`} className="auth-field-error" role="alert" data-testid="register-error">
          {failure ? errorText(failure) : shownProblem ? t(`auth.errors.${shownProblem}`) : ''}
          <TakenEmailSignIn failure={failure} email={normalisedEmail(email)} testId="register-taken-sign-in" />
        </p>
      </div>
      <SubmitButton
        busy={busy}
        disabled={busy || problem !== null}
        label={t('auth.register.continue')}
        busyLabel={t('auth.register.checking')}
        testId="register-continue"
      />
    </form>
  );
}
