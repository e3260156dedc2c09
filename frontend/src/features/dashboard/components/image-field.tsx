import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { IMAGE_TYPES, type SessionUser } from '@domain/auth-api';
import { errorTextOf } from '@/i18n/error-keys';
import { useAction } from '@/lib/use-action';
import { updateProfile } from '@/shared/account/account-api';
import { profileApi } from '../api/dashboard-api';
import { ImageRejectedError, initialsOf, removeImageBody, uploadProfileImage, type ImageKind } from '../profile';
import { Avatar } from './avatar';

/** One picture: preview (initials when none), upload after checking type and size, remove. */
export function ImageField({
  kind,
  user,
  onSaved,
}: {
  kind: ImageKind;
  user: SessionUser;
  onSaved(user: SessionUser): void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  // A picture refused before any upload says why; a failed call says the API's code in the reader's language.
  const action = useAction({
    errorText: (err) => {
      if (err instanceof ImageRejectedError) return t(`dashboard.profile.errors.${err.problem}`);
      const text = errorTextOf(err);
      return t('dashboard.profile.errors.imageFailed', { message: t(text.key, text.params) });
    },
  });
  const src = kind === 'profile' ? user.profilePic : user.logoPic;
  const label = kind === 'profile' ? t('dashboard.profile.picture') : t('dashboard.profile.logo');
  const initials =
    kind === 'profile' ? initialsOf(user) : initialsOf({ fullName: user.company ?? '', email: user.email });
  const busy = action.busy;

  const run = (work: () => Promise<SessionUser>) => action.run(async () => onSaved(await work()));

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
        {action.error && (
          <p className="dash-error" role="alert" data-testid={`${testId}-error`}>
            {action.error}
          </p>
        )}
      </div>
    </div>
  );
}
