import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { useSession } from '@/lib/session/session-provider';
import { requestResetLink } from '../api/accounts-api';
import { emailProblem, loginProblems, normalisedEmail } from '../field-problems';
import { safeRedirect } from '../redirect';
import { noCredentialProblems, useCredentials } from '../components/form-parts';
import { useAuthAction } from './use-auth-action';
import { useShake } from './use-shake';

export type LoginMode = 'login' | 'forgot' | 'sent';

function startsInForgotMode(value: string | null): boolean {
  return value !== null && value !== '0' && value !== 'false';
}

/**
 * The login screen's state: the mode (log in, ask for a reset link, link sent), the shared
 * credentials, and both calls; a refused field or call shakes the card and focuses the field.
 */
export function useLogin() {
  const { i18n } = useTranslation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const shake = useShake();
  const [mode, setMode] = useState<LoginMode>(() =>
    startsInForgotMode(searchParams.get('forgotPass')) ? 'forgot' : 'login',
  );
  const credentials = useCredentials(() => searchParams.get('user') ?? '');
  const { email, password, setProblems } = credentials;
  const { busy, failure, setFailure, run } = useAuthAction();
  const card = useRef<HTMLDivElement>(null);
  const forgotInput = useRef<HTMLInputElement>(null);

  const switchMode = (next: LoginMode) => {
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
    await run(
      async () => {
        await session.login(normalisedEmail(email), password);
        navigate(safeRedirect(searchParams.get('redirect')) ?? paths.dash(), { replace: true });
      },
      { 401: 'authFailed' },
      () => shake(card.current, credentials.passwordInput.current),
    );
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
    const sent = await run(
      () => requestResetLink(normalisedEmail(email), i18n.resolvedLanguage ?? 'en'),
      {},
      () => shake(card.current, forgotInput.current),
    );
    if (sent) switchMode('sent');
  };

  return { mode, switchMode, credentials, busy, failure, card, forgotInput, logIn, requestLink };
}

export type LoginState = ReturnType<typeof useLogin>;
