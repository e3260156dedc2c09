import { useCallback, useState } from 'react';
import { useAction } from '@/lib/use-action';
import { authErrorText, type AuthErrorKey, type AuthErrorText } from '../auth-errors';

/**
 * An account form's call through `useAction` (busy, no second submit, nothing set after
 * unmount). Its failure stays an `AuthErrorText`, not text: the form words it at render in the
 * reader's language, and 'this email is taken' adds a Sign In link.
 */
export function useAuthAction() {
  const { busy, run: runAction } = useAction();
  const [failure, setFailure] = useState<AuthErrorText | null>(null);

  /** `byStatus` names the spec's text for the statuses this call answers with; `onError` shakes, resets, focuses. */
  const run = useCallback(
    (
      work: () => Promise<unknown>,
      byStatus: Readonly<Partial<Record<number, AuthErrorKey>>> = {},
      onError?: (err: unknown) => void,
    ) =>
      runAction(work, {
        onError: (err) => {
          setFailure(authErrorText(err, byStatus));
          onError?.(err);
        },
      }),
    [runAction],
  );

  return { busy, failure, setFailure, run };
}
