import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { ApiError } from '@/lib/api';
import { usePageTitle } from '@/lib/use-page-title';
import { resetPassword } from '../api/accounts-api';
import { newPasswordProblem, type FieldProblem } from '../field-problems';
import { useAuthAction } from '../hooks/use-auth-action';
import { tokenRejected, useResetToken } from '../hooks/use-reset-token';
import { useShake } from '../hooks/use-shake';
import { AuthField } from './auth-field';
import { FailureAlert, SubmitButton } from './form-parts';
import '../auth.css';

/**
 * Reset password (spec §2, §8): the token from ?t= is checked before the form is usable; a
 * failed check disables the reset and offers a new link; success leads to Login.
 */
export function UpdatePasswordPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('t') ?? '';
  const id = useId();
  const shake = useShake();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const { busy, failure, setFailure, run } = useAuthAction();
  const [state, setState] = useResetToken(token, setFailure);
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  usePageTitle(t('auth.updatePassword.title'));

  useEffect(() => {
    if (state === 'ready') input.current?.focus();
  }, [state]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || state !== 'ready') return;
    const found = newPasswordProblem(password);
    setProblem(found);
    setFailure(null);
    if (found) {
      shake(form.current, input.current);
      return;
    }
    await run(
      async () => {
        await resetPassword(token, password);
        setState('done');
      },
      {},
      // A refused token (not a bad body) makes the link invalid, which says so in place of the failure.
      (err) => {
        if (tokenRejected(err) && err instanceof ApiError && err.status !== 400) {
          setFailure(null);
          setState('invalid');
        }
      },
    );
  };

  const disabled = state !== 'ready' || busy;

  return (
    <div className="container auth-page">
      <div className="auth-card">
        {state === 'done' ? (
          <div role="status" data-testid="update-password-done">
            <h1 className="auth-title">{t('auth.updatePassword.doneHeading')}</h1>
            <p className="auth-lead">{t('auth.updatePassword.doneBody')}</p>
            <Link to={paths.login()} className="btn btn-primary btn-block" data-testid="update-password-login">
              {t('auth.updatePassword.login')}
            </Link>
          </div>
        ) : (
          <form
            ref={form}
            onSubmit={submit}
            noValidate
            aria-labelledby={`${id}-title`}
            aria-busy={state === 'checking'}
          >
            <h1 id={`${id}-title`} className="auth-title">
              {t('auth.updatePassword.title')}
            </h1>
            <p className="auth-lead">
              {state === 'checking' ? t('auth.updatePassword.checking') : t('auth.updatePassword.lead')}
            </p>
            {state === 'invalid' && !failure && (
              <p className="auth-alert" role="alert" data-testid="update-password-invalid">
                {t('auth.errors.resetLinkInvalid')}{' '}
                <Link to={paths.login({ forgotPass: true })} data-testid="update-password-request-new">
                  {t('auth.updatePassword.requestNew')}
                </Link>
              </p>
            )}
            <fieldset className="auth-fieldset" disabled={disabled}>
              <AuthField
                id={`${id}-password`}
                label={t('auth.fields.newPassword')}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={setPassword}
                problem={problem}
                hint={t('auth.fields.passwordHint')}
                inputRef={input}
                testId="update-password-input"
              />
              <FailureAlert failure={failure} testId="update-password-error" />
              {/* the fieldset disables it while the link is checked or a save is under way */}
              <SubmitButton
                busy={busy}
                disabled={false}
                label={t('auth.updatePassword.submit')}
                busyLabel={t('auth.updatePassword.saving')}
                testId="update-password-submit"
              />
            </fieldset>
          </form>
        )}
      </div>
    </div>
  );
}
