import { useTranslation } from 'react-i18next';
import type { AuthErrorText } from '../auth-errors';
import type { FieldProblem } from '../field-problems';

/** The translated text of a failed call. */
export function useAuthErrorText(): (error: AuthErrorText) => string {
  const { t } = useTranslation();
  return (error) => ('key' in error ? t(`auth.errors.${error.key}`) : t(error.text.key, error.text.params));
}

/** A field's problem under it; empty (and hidden by CSS) when there is none. */
export function FieldError({ id, problem }: { id: string; problem: FieldProblem | null }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="auth-field-error">
      {problem ? t(`auth.errors.${problem}`) : ''}
    </p>
  );
}
