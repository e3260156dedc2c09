import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '@/lib/use-page-title';
import { useHostBranding } from '../host-branding';
import { useLogin } from '../hooks/use-login';
import { ForgotForm, LoginForm, ResetSent } from './login-forms';
import '../auth.css';

/**
 * Login (spec §2, §4, §8): query user prefills the email, redirect is where to go afterwards
 * (paths of this app only), forgotPass opens the forgot-password mode.
 */
export function LoginPage() {
  // on a customer's verified domain, their logo above the form
  const hostBranding = useHostBranding();
  const { t } = useTranslation();
  const id = useId();
  const login = useLogin();
  usePageTitle(t('auth.login.title'));

  return (
    <div className="container auth-page">
      <div className="auth-card" ref={login.card} data-testid="login-card">
        {hostBranding?.logoUrl && (
          <img
            className="auth-host-logo"
            src={hostBranding.logoUrl}
            alt={hostBranding.companyName ?? ''}
            data-testid="login-host-logo"
          />
        )}
        {login.mode === 'login' && <LoginForm id={id} login={login} />}
        {login.mode === 'forgot' && <ForgotForm id={id} login={login} />}
        {login.mode === 'sent' && <ResetSent id={id} onBack={() => login.switchMode('login')} />}
      </div>
    </div>
  );
}
