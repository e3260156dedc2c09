import { useState, type ChangeEvent, type FormEvent } from 'react';
import { suggestCompany } from '@domain/branding';
import type { SessionUser } from '@domain/auth-api';
import { useAction } from '@/lib/use-action';
import { updateProfile } from '@/shared/account/account-api';
import { profileChanges, profileFields, type ProfileFieldProblem, type ProfileFields } from './profile';

/** The profile's text fields: edits, their problems, and the save (only when something changed). */
export function useProfileDetails(user: SessionUser, onSaved: (user: SessionUser) => void) {
  // an empty company starts from the one the email's domain suggests (free mail domains give none); saved only with the form
  const [fields, setFields] = useState<ProfileFields>(() => {
    const saved = profileFields(user);
    return saved.company ? saved : { ...saved, company: suggestCompany(user.email) ?? '' };
  });
  const [problems, setProblems] = useState<Partial<Record<keyof ProfileFields, ProfileFieldProblem>>>({});
  const [outcome, setOutcome] = useState<'idle' | 'saved' | 'unchanged'>('idle');
  const action = useAction();

  const edit = (field: keyof ProfileFields) => (event: ChangeEvent<HTMLInputElement>) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
    setOutcome('idle');
    action.setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const changes = profileChanges(profileFields(user), fields);
    if (!changes.ok) {
      setProblems(changes.problems);
      return;
    }
    setOutcome('idle');
    if (!changes.changed) {
      action.setError(null);
      setOutcome('unchanged');
      return;
    }
    await action.run(async () => {
      onSaved(await updateProfile(changes.body));
      setOutcome('saved');
    });
  };

  return { fields, problems, outcome, action, edit, submit };
}
