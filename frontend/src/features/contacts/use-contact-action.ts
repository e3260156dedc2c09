import { useTranslation } from 'react-i18next';
import { contactEmailSchema } from '@domain/contacts-api';
import { problemKeyOf } from '@/i18n/error-keys';
import { useAction } from '@/lib/use-action';
import { useContactErrorText } from './contact-errors';

/** A contacts action: refusals in the contacts screen's words, and the address checked first. */
export function useContactAction() {
  const { t: tApp } = useTranslation();
  const errorText = useContactErrorText();
  const action = useAction({ errorText });
  /** The address as the server checks it; undefined, with the problem shown, when it is not one. */
  const validEmail = (email: string) => {
    const parsed = contactEmailSchema.safeParse(email);
    if (parsed.success) return parsed.data;
    action.setError(tApp(problemKeyOf(parsed.error.issues[0]?.message)));
    return undefined;
  };
  return { ...action, validEmail };
}
