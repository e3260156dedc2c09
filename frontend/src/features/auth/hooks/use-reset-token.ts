import { useEffect, useState } from 'react';
import { resetTokenSchema } from '@domain/auth-api';
import { ApiError } from '@/lib/api';
import { checkResetToken } from '../api/accounts-api';
import { authErrorText, type AuthErrorText } from '../auth-errors';

/** checking: POST /passTokenCheck under way; ready: 202; invalid: any other answer; done: saved. */
export type TokenState = 'checking' | 'ready' | 'invalid' | 'done';

/** A refusal of the token itself, as opposed to a network or server fault. */
export function tokenRejected(err: unknown): boolean {
  return err instanceof ApiError && !err.isNetwork && err.status >= 400 && err.status < 500;
}

/**
 * The reset link's token, checked (POST /passTokenCheck) before the form is usable; a network
 * fault goes to `setFailure`, a refusal makes the link invalid.
 */
export function useResetToken(token: string, setFailure: (failure: AuthErrorText | null) => void) {
  const [state, setState] = useState<TokenState>(() =>
    resetTokenSchema.safeParse({ token }).success ? 'checking' : 'invalid',
  );

  useEffect(() => {
    if (!resetTokenSchema.safeParse({ token }).success) {
      setState('invalid');
      return;
    }
    const controller = new AbortController();
    setState('checking');
    setFailure(null);
    checkResetToken(token, controller.signal).then(
      () => setState('ready'),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setState('invalid');
        // A network fault is not the link's fault: say so instead of calling it expired.
        if (!tokenRejected(err)) setFailure(authErrorText(err));
      },
    );
    return () => controller.abort();
  }, [token]);

  return [state, setState] as const;
}
