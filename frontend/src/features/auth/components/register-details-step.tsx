import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { suggestCompany } from '@domain/branding';
import { useSession } from '@/lib/session/session-provider';
import { signup } from '../api/accounts-api';
import { useAuthAction } from '../hooks/use-auth-action';
import { nameProblem, newPasswordProblem, type FieldProblem } from '../field-problems';
import { useShake } from '../hooks/use-shake';
import type { SignupRole } from '../register-steps';
import { currentBrowser, signupBody } from '../signup-payload';
import { AuthField } from './auth-field';
import { FailureAlert, SubmitButton, TakenEmailSignIn } from './form-parts';

interface DetailsStepProps {
  readonly email: string;
  readonly registrationToken: string;
  readonly plan: SignupRole;
  onSignedUp(): void;
  /** back to step 1 with nothing remembered */
  onStartOver(): void;
}

/**
 * Step 3: full name, password (at least 6 characters), company; POST /signup2 with the
 * proof of step 2, the chosen plan as role and the browser context (spec §3), then the
 * answer becomes the session.
 */
export function DetailsStep({ email, registrationToken, plan, onSignedUp, onStartOver }: DetailsStepProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const session = useSession();
  const shake = useShake();
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  // the company an address's domain suggests pre-fills the field once; what the user types stays
  const [company, setCompany] = useState(() => suggestCompany(email) ?? '');
  const [problems, setProblems] = useState<{ fullName: FieldProblem | null; password: FieldProblem | null }>({
    fullName: null,
    password: null,
  });
  const { busy, failure, setFailure, run } = useAuthAction();
  const form = useRef<HTMLFormElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  useEffect(() => nameInput.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = { fullName: nameProblem(fullName), password: newPasswordProblem(password) };
    setProblems(found);
    setFailure(null);
    if (found.fullName || found.password) {
      shake(form.current, found.fullName ? nameInput.current : passwordInput.current);
      return;
    }
    await run(
      async () => {
        const auth = await signup(
          signupBody(
            { registrationToken, email, fullName, password, company, role: plan, lang: i18n.resolvedLanguage ?? 'en' },
            currentBrowser(),
          ),
        );
        session.completeSignup(auth);
        onSignedUp();
      },
      // 401/403/410: the proof of the email is no longer accepted (expired or used).
      { 409: 'emailTaken', 401: 'registrationExpired', 403: 'registrationExpired', 410: 'registrationExpired' },
      () => shake(form.current, nameInput.current),
    );
  };

  const failureKey = failure && 'key' in failure ? failure.key : null;

  return (
    <form ref={form} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="auth-subtitle">
        {t('auth.register.detailsHeading')}
      </h2>
      <p className="auth-lead">{t('auth.register.detailsLead', { email })}</p>
      <AuthField
        id={`${id}-name`}
        label={t('auth.fields.fullName')}
        type="text"
        autoComplete="name"
        maxLength={200}
        value={fullName}
        onChange={setFullName}
        problem={problems.fullName}
        inputRef={nameInput}
        testId="register-name"
      />
      <AuthField
        id={`${id}-password`}
        label={t('auth.fields.password')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        problem={problems.password}
        hint={t('auth.fields.passwordHint')}
        inputRef={passwordInput}
        testId="register-password"
      />
      <div className="auth-field">
        <label htmlFor={`${id}-company`}>
          {t('auth.fields.company')} <span className="auth-optional">({t('auth.fields.optional')})</span>
        </label>
        <input
          id={`${id}-company`}
          className="account-input"
          type="text"
          autoComplete="organization"
          maxLength={200}
          value={company}
          onChange={(e) => setCompany(e.target.value)}
          data-testid="register-company"
        />
      </div>
      <FailureAlert failure={failure} testId="register-submit-error">
        <TakenEmailSignIn failure={failure} email={email} />
      </FailureAlert>
      <SubmitButton
        busy={busy}
        label={t('auth.register.create')}
        busyLabel={t('auth.register.creating')}
        testId="register-submit"
      />
      <p className="auth-footnote">
        <button type="button" className="auth-link-button" onClick={onStartOver} data-testid="register-other-email">
          {failureKey === 'registrationExpired' ? t('auth.register.verifyAgain') : t('auth.register.otherEmail')}
        </button>
      </p>
    </form>
  );
}
