import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { suggestCompany } from '@domain/branding';
import type { TFunction } from 'i18next';
import { errorTextOf } from '@/i18n/error-keys';
import { IMAGE_TYPES, type SessionUser } from '@domain/auth-api';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { updateProfile } from '@/shared/account/account-api';
import { profileApi } from '../api/dashboard-api';
import {
  ImageRejectedError,
  initialsOf,
  profileChanges,
  profileFields,
  removeImageBody,
  uploadProfileImage,
  type ImageKind,
  type ProfileFieldProblem,
  type ProfileFields,
} from '../profile';
import { Avatar } from './avatar';

const NAME_MAX = 200;
const GREETING_MAX = 100;

/** A failed call in the reader's language, by its code (never the API's English message). */
function errorMessage(t: TFunction, err: unknown): string {
  const text = errorTextOf(err);
  return t(text.key, text.params);
}

/** Profile (spec §2 /dash/account/profile, §3 User): names, company, picture and company logo. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user, setUser } = useSession();
  usePageTitle(t('dashboard.profile.title'));
  if (!user) return <PageLoading />;
  return (
    <div className="container dash-page">
      <h1>{t('dashboard.profile.title')}</h1>
      <p className="lead">{t('dashboard.profile.lead')}</p>
      <div className="dash-profile-grid">
        <ProfileDetails key={user._id} user={user} onSaved={setUser} />
        <section className="card" aria-labelledby="dash-pictures-title">
          <h2 id="dash-pictures-title">{t('dashboard.profile.picturesTitle')}</h2>
          <ImageField kind="profile" user={user} onSaved={setUser} />
          <ImageField kind="logo" user={user} onSaved={setUser} />
        </section>
      </div>
    </div>
  );
}

type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'unchanged' }
  | { kind: 'failed'; message: string };

function ProfileDetails({ user, onSaved }: { user: SessionUser; onSaved(user: SessionUser): void }) {
  const { t } = useTranslation();
  const ids = useId();
  // an empty company starts from the one the email's domain suggests (free mail domains give none); saved only with the form
  const [fields, setFields] = useState<ProfileFields>(() => {
    const saved = profileFields(user);
    return saved.company ? saved : { ...saved, company: suggestCompany(user.email) ?? '' };
  });
  const [problems, setProblems] = useState<Partial<Record<keyof ProfileFields, ProfileFieldProblem>>>({});
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });

  const edit = (field: keyof ProfileFields) => (event: ChangeEvent<HTMLInputElement>) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
    setSave({ kind: 'idle' });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.kind === 'saving') return;
    const changes = profileChanges(profileFields(user), fields);
    if (!changes.ok) {
      setProblems(changes.problems);
      return;
    }
    if (!changes.changed) {
      setSave({ kind: 'unchanged' });
      return;
    }
    setSave({ kind: 'saving' });
    try {
      onSaved(await updateProfile(changes.body));
      setSave({ kind: 'saved' });
    } catch (err) {
      setSave({ kind: 'failed', message: errorMessage(t, err) });
    }
  };

  const input = (
    field: keyof ProfileFields,
    maxLength: number,
    testId: string,
    extra: { autoComplete: string; hint?: string },
  ) => {
    const id = `${ids}-${field}`;
    const problem = problems[field];
    const described = [extra.hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
    return (
      <div className="dash-field">
        <label htmlFor={id} className="dash-label">
          {t(`dashboard.profile.${field}`)}
        </label>
        <input
          id={id}
          className="dash-input"
          type="text"
          value={fields[field]}
          maxLength={maxLength}
          autoComplete={extra.autoComplete}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described || undefined}
          onChange={edit(field)}
          data-testid={testId}
        />
        {extra.hint && (
          <p id={`${id}-hint`} className="dash-hint">
            {extra.hint}
          </p>
        )}
        {problem && (
          <p id={`${id}-problem`} className="dash-error">
            {t(`dashboard.profile.errors.${problem}`)}
          </p>
        )}
      </div>
    );
  };

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
        {input('fullName', NAME_MAX, 'profile-full-name', { autoComplete: 'name' })}
        {input('greetingName', GREETING_MAX, 'profile-greeting-name', {
          autoComplete: 'nickname',
          hint: t('dashboard.profile.greetingNameHint'),
        })}
        {input('company', NAME_MAX, 'profile-company', { autoComplete: 'organization' })}
        <div className="dash-form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={save.kind === 'saving'}
            data-testid="profile-save"
          >
            {save.kind === 'saving' ? t('dashboard.profile.saving') : t('dashboard.profile.save')}
          </button>
          <p
            className={`dash-save-status${save.kind === 'failed' ? ' dash-error' : ''}`}
            role="status"
            data-testid="profile-status"
          >
            {save.kind === 'saved' && t('dashboard.profile.saved')}
            {save.kind === 'unchanged' && t('dashboard.profile.unchanged')}
            {save.kind === 'failed' && t('dashboard.profile.failed', { message: save.message })}
          </p>
        </div>
      </form>
    </section>
  );
}

type ImageState =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'rejected'; problem: 'type' | 'size' | 'empty' }
  | { kind: 'failed'; message: string };

/** One picture: preview (initials when none), upload after checking type and size, remove. */
function ImageField({ kind, user, onSaved }: { kind: ImageKind; user: SessionUser; onSaved(user: SessionUser): void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [state, setState] = useState<ImageState>({ kind: 'idle' });
  const src = kind === 'profile' ? user.profilePic : user.logoPic;
  const label = kind === 'profile' ? t('dashboard.profile.picture') : t('dashboard.profile.logo');
  const initials =
    kind === 'profile' ? initialsOf(user) : initialsOf({ fullName: user.company ?? '', email: user.email });
  const busy = state.kind === 'busy';

  const run = async (work: () => Promise<SessionUser>) => {
    setState({ kind: 'busy' });
    try {
      onSaved(await work());
      setState({ kind: 'idle' });
    } catch (err) {
      setState(
        err instanceof ImageRejectedError
          ? { kind: 'rejected', problem: err.problem }
          : { kind: 'failed', message: errorMessage(t, err) },
      );
    }
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so picking the same file again (after a failure) fires change again.
    event.target.value = '';
    if (file) void run(() => uploadProfileImage(kind, file, profileApi));
  };

  const testId = kind === 'profile' ? 'profile-picture' : 'profile-logo';
  return (
    <div className="dash-image-field" aria-busy={busy || undefined}>
      <Avatar
        src={src}
        initials={initials}
        alt={label}
        size={72}
        shape={kind === 'profile' ? 'round' : 'square'}
        testId={`${testId}-preview`}
      />
      <div className="dash-image-body">
        <p className="dash-label" id={`${ids}-label`}>
          {label}
        </p>
        <div className="dash-image-actions">
          <label className={`btn btn-ghost btn-sm${busy ? ' dash-disabled' : ''}`}>
            {busy
              ? t('dashboard.profile.uploading')
              : src
                ? t('dashboard.profile.replace')
                : t('dashboard.profile.choose')}
            <input
              type="file"
              className="dash-file-input"
              accept={IMAGE_TYPES.join(',')}
              disabled={busy}
              aria-describedby={`${ids}-hint`}
              onChange={onPick}
              data-testid={`${testId}-input`}
            />
          </label>
          {src && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy}
              onClick={() => void run(() => updateProfile(removeImageBody(kind)))}
              data-testid={`${testId}-remove`}
            >
              {t('dashboard.profile.remove')}
            </button>
          )}
        </div>
        <p id={`${ids}-hint`} className="dash-hint">
          {t('dashboard.profile.imageHint')}
        </p>
        {state.kind === 'rejected' && (
          <p className="dash-error" role="alert" data-testid={`${testId}-error`}>
            {t(`dashboard.profile.errors.${state.problem}`)}
          </p>
        )}
        {state.kind === 'failed' && (
          <p className="dash-error" role="alert" data-testid={`${testId}-error`}>
            {t('dashboard.profile.errors.imageFailed', { message: state.message })}
          </p>
        )}
      </div>
    </div>
  );
}
