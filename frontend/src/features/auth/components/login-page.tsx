import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { requestResetLink } from '../api/accounts-api';
import { authErrorText, type AuthErrorText } from '../auth-errors';
import { emailProblem, loginProblems, normalisedEmail } from '../field-problems';
import { useShake } from '../hooks/use-shake';
import { safeRedirect } from '../redirect';
import { useHostBranding } from '../host-branding';
import { AuthField } from './auth-field';
import { CredentialFields, FailureAlert, noCredentialProblems, SubmitButton, useCredentials } from './form-parts';
import '../auth.css';

type Mode = 'login' | 'forgot' | 'sent';

function startsInForgotMode(value: string | null): boolean {
  return value !== null && value !== '0' && value !== 'false';
}

/**
 * Login (spec §2, §4, §8): query user prefills the email, redirect is where to go afterwards
 * (paths of this app only), forgotPass opens the forgot-password mode.
 */
export function LoginPage() {
  // on a customer's verified domain, their logo above the form
  const hostBranding = useHostBranding();
  const { t, i18n } = useTranslation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const shake = useShake();
  const id = useId();
  const [mode, setMode] = useState<Mode>(() =>
    startsInForgotMode(searchParams.get('forgotPass')) ? 'forgot' : 'login',
  );
  const credentials = useCredentials(() => searchParams.get('user') ?? '');
  const { email, setEmail, password, problems, setProblems } = credentials;
  const [failure, setFailure] = useState<AuthErrorText | null>(null);
  const [busy, setBusy] = useState(false);
  const card = useRef<HTMLDivElement>(null);
  const forgotInput = useRef<HTMLInputElement>(null);
  usePageTitle(t('auth.login.title'));

  const switchMode = (next: Mode) => {
    setMode(next);
    setProblems(noCredentialProblems);
    setFailure(null);
  };

  const logIn = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = loginProblems({ email, password });
    setProblems(found);
    setFailure(null);
    if (found.email || found.password) {
      shake(card.current, credentials.firstInvalid(found));
      return;
    }
    setBusy(true);
    try {
      await session.login(normalisedEmail(email), password);
      navigate(safeRedirect(searchParams.get('redirect')) ?? paths.dash(), { replace: true });
    } catch (err) {
      setBusy(false);
      setFailure(authErrorText(err, { 401: 'authFailed' }));
      shake(card.current, credentials.passwordInput.current);
    }
  };

  const requestLink = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = emailProblem(email);
    setProblems({ email: problem, password: null });
    setFailure(null);
    if (problem) {
      shake(card.current, forgotInput.current);
      return;
    }
    setBusy(true);
    try {
      await requestResetLink(normalisedEmail(email), i18n.resolvedLanguage ?? 'en');
      setBusy(false);
      switchMode('sent');
    } catch (err) {
      setBusy(false);
      setFailure(authErrorText(err));
      shake(card.current, forgotInput.current);
    }
  };

  const failureBox = <FailureAlert failure={failure} testId="login-error" />;

  return (
    <div className="container auth-page">
      <div className="auth-card" ref={card} data-testid="login-card">
        {hostBranding?.logoUrl && (
          <img
            className="auth-host-logo"
            src={hostBranding.logoUrl}
            alt={hostBranding.companyName ?? ''}
            data-testid="login-host-logo"
          />
        )}
        {mode === 'login' && (
          <form onSubmit={logIn} noValidate aria-labelledby={`${id}-title`}>
            <h1 id={`${id}-title`} className="auth-title">
              {t('auth.login.heading')}
            </h1>
            <p className="auth-lead">{t('auth.login.lead')}</p>
            <CredentialFields
              id={id}
              kind="login"
              fields={credentials}
              testIdPrefix="login"
              passwordAside={
                <button
                  type="button"
                  className="auth-link-button"
                  onClick={() => switchMode('forgot')}
                  data-testid="login-forgot"
                >
                  {t('auth.login.forgot')}
                </button>
              }
            />
            {failureBox}
            <SubmitButton
              busy={busy}
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
        )}

        {mode === 'forgot' && (
          <form onSubmit={requestLink} noValidate aria-labelledby={`${id}-forgot-title`}>
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
              inputRef={forgotInput}
              testId="forgot-email"
            />
            {failureBox}
            <SubmitButton
              busy={busy}
              label={t('auth.forgot.submit')}
              busyLabel={t('auth.forgot.submitting')}
              testId="forgot-submit"
            />
            <p className="auth-footnote">
              <button
                type="button"
                className="auth-link-button"
                onClick={() => switchMode('login')}
                data-testid="back-to-login"
              >
                {t('auth.forgot.back')}
              </button>
            </p>
          </form>
        )}

        {mode === 'sent' && (
          <div aria-labelledby={`${id}-sent-title`} role="region">
            <h1 id={`${id}-sent-title`} className="auth-title">
              {t('auth.sent.heading')}
            </h1>
            <p className="auth-lead" role="status" data-testid="reset-sent">
              {t('auth.sent.body')}
            </p>
            <button
              type="button"
              className="btn btn-ghost btn-block"
              onClick={() => switchMode('login')}
              data-testid="back-to-login"
            >
              {t('auth.forgot.back')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
