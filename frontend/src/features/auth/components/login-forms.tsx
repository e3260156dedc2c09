import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import type { LoginState } from '../hooks/use-login';
import { AuthField } from './auth-field';
import { CredentialFields, FailureAlert, SubmitButton } from './form-parts';

/** Email and password, with the way to a reset link and to sign up. */
export function LoginForm({ id, login }: { id: string; login: LoginState }) {
  const { t } = useTranslation();
  return (
    <form onSubmit={login.logIn} noValidate aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="auth-title">
        {t('auth.login.heading')}
      </h1>
      <p className="auth-lead">{t('auth.login.lead')}</p>
      <CredentialFields
        id={id}
        kind="login"
        fields={login.credentials}
        testIdPrefix="login"
        passwordAside={
          <button
            type="button"
            className="auth-link-button"
            onClick={() => login.switchMode('forgot')}
            data-testid="login-forgot"
          >
            {t('auth.login.forgot')}
          </button>
        }
      />
      <FailureAlert failure={login.failure} testId="login-error" />
      <SubmitButton
        busy={login.busy}
        label={t('auth.login.submit')}
        busyLabel={t('auth.login.submitting')}
        testId="login-submit"
      />
      <p className="auth-footnote">
        {t('auth.login.noAccount')}{' '}
        <Link to={paths.pricing()} data-testid="login-signup">
          {t('auth.login.signUp')}
        </Link>
      </p>
    </form>
  );
}

/** The email a reset link goes to. */
export function ForgotForm({ id, login }: { id: string; login: LoginState }) {
  const { t } = useTranslation();
  const { email, setEmail, problems } = login.credentials;
  return (
    <form onSubmit={login.requestLink} noValidate aria-labelledby={`${id}-forgot-title`}>
      <h1 id={`${id}-forgot-title`} className="auth-title">
        {t('auth.forgot.heading')}
      </h1>
      <p className="auth-lead">{t('auth.forgot.lead')}</p>
      <AuthField
        id={`${id}-forgot-email`}
        label={t('auth.fields.email')}
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
        problem={problems.email}
        inputRef={login.forgotInput}
        testId="forgot-email"
      />
      <FailureAlert failure={login.failure} testId="login-error" />
      <SubmitButton
        busy={login.busy}
        label={t('auth.forgot.submit')}
        busyLabel={t('auth.forgot.submitting')}
        testId="forgot-submit"
      />
      <p className="auth-footnote">
        <button
          type="button"
          className="auth-link-button"
          onClick={() => login.switchMode('login')}
          data-testid="back-to-login"
        >
          {t('auth.forgot.back')}
        </button>
      </p>
    </form>
  );
}

/** The link is on its way. */
export function ResetSent({ id, onBack }: { id: string; onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={`${id}-sent-title`}>
      <h1 id={`${id}-sent-title`} className="auth-title">
        {t('auth.sent.heading')}
      </h1>
      <p className="auth-lead" role="status" data-testid="reset-sent">
        {t('auth.sent.body')}
      </p>
      <button type="button" className="btn btn-ghost btn-block" onClick={onBack} data-testid="back-to-login">
        {t('auth.forgot.back')}
      </button>
    </section>
  );
}
