import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldNotes, fieldNotesIds } from '@/components/field-notes';
import type { SessionUser } from '@domain/auth-api';
import type { ProfileFieldProblem, ProfileFields } from '../profile';
import { useProfileDetails } from '../use-profile-details';

const NAME_MAX = 200;
const GREETING_MAX = 100;

/** The profile's names and company, saved together. */
export function ProfileDetails({ user, onSaved }: { user: SessionUser; onSaved(user: SessionUser): void }) {
  const { t } = useTranslation();
  const ids = useId();
  const { fields, problems, outcome, action, edit, submit } = useProfileDetails(user, onSaved);
  const field = (name: keyof ProfileFields) => ({
    id: `${ids}-${name}`,
    label: t(`dashboard.profile.${name}`),
    value: fields[name],
    problem: problems[name],
    onChange: edit(name),
  });

  return (
    <section className="card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('dashboard.profile.detailsTitle')}</h2>
      <form noValidate onSubmit={(event) => void submit(event)} data-testid="profile-form">
        <div className="dash-field">
          <span className="dash-label">{t('dashboard.profile.email')}</span>
          <p className="dash-static" data-testid="profile-email">
            {user.email}
          </p>
        </div>
        <ProfileInput {...field('fullName')} maxLength={NAME_MAX} testId="profile-full-name" autoComplete="name" />
        <ProfileInput
          {...field('greetingName')}
          maxLength={GREETING_MAX}
          testId="profile-greeting-name"
          autoComplete="nickname"
          hint={t('dashboard.profile.greetingNameHint')}
        />
        <ProfileInput {...field('company')} maxLength={NAME_MAX} testId="profile-company" autoComplete="organization" />
        <div className="dash-form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="profile-save">
            {action.busy ? t('dashboard.profile.saving') : t('dashboard.profile.save')}
          </button>
          <p
            className={`dash-save-status${action.error ? ' dash-error' : ''}`}
            role="status"
            data-testid="profile-status"
          >
            {outcome === 'saved' && t('dashboard.profile.saved')}
            {outcome === 'unchanged' && t('dashboard.profile.unchanged')}
            {action.error && t('dashboard.profile.failed', { message: action.error })}
          </p>
        </div>
      </form>
    </section>
  );
}

/** A labelled text field with its hint and problem, both tied to it by aria-describedby. */
function ProfileInput({
  id,
  label,
  value,
  problem,
  onChange,
  maxLength,
  testId,
  autoComplete,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  problem: ProfileFieldProblem | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  maxLength: number;
  testId: string;
  autoComplete: string;
  hint?: string;
}) {
  const { t } = useTranslation();
  const described = fieldNotesIds(id, { hint, problem });
  return (
    <div className="dash-field">
      <label htmlFor={id} className="dash-label">
        {label}
      </label>
      <input
        id={id}
        className="dash-input"
        type="text"
        value={value}
        maxLength={maxLength}
        autoComplete={autoComplete}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described}
        onChange={onChange}
        data-testid={testId}
      />
      <FieldNotes id={id} hint={hint} problem={problem && t(`dashboard.profile.errors.${problem}`)} />
    </div>
  );
}
