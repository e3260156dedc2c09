import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import { SEND_PASSWORD_MIN_LENGTH } from '@domain/input-rules';
import { paths } from '@/app/paths';
import { expiryKey } from '@/shared/send-form/labels';
import {
  expiryOptions,
  selectExpiry,
  setCustomExpiry,
  setPassword,
  setSendAs,
  setShareEveryone,
  sharesWithEveryone,
  toggleShare,
  type SendForm,
  type SenderContext,
  type TeamMemberOption,
} from '@/shared/send-form/send-state';
import { CustomExpiryInput } from '@/shared/send-form/components/custom-expiry-input';
import { PasswordInput } from '@/shared/send-form/components/password-input';

export interface TabProps {
  readonly form: SendForm;
  onChange(update: (form: SendForm) => SendForm): void;
}

export function LinkTab({
  form,
  sender,
  problem,
  fieldRef,
  onChange,
}: TabProps & { sender: SenderContext; problem?: string; fieldRef: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const name = useId();
  if (!sender.signedIn) {
    return (
      <div ref={fieldRef} className="qs-upsell">
        <p>{t('send.link.reserved')}</p>
        <Link to={paths.pricing({ plan: 'premium' })} className="btn btn-primary btn-sm">
          {t('send.toast.getTrial')}
        </Link>
      </div>
    );
  }
  return (
    <div ref={fieldRef} role="radiogroup" aria-label={t('send.link.legend')} className="qs-choices">
      {(['email', 'link'] as const).map((mode) => (
        <label key={mode} className="qs-choice">
          <input
            type="radio"
            name={name}
            checked={form.sendAs === mode}
            onChange={() => onChange((f) => setSendAs(f, mode, sender))}
          />
          <span>{t(`send.link.${mode}`)}</span>
        </label>
      ))}
      {problem && <p className="qs-field-error">{problem}</p>}
    </div>
  );
}

export function SharingTab({ form, members, onChange }: TabProps & { members: readonly TeamMemberOption[] | null }) {
  const { t } = useTranslation();
  if (!members) return <p className="qs-muted">{t('send.sharing.justYou')}</p>;
  const ids = members.map((m) => m.shareWithId);
  const everyone = sharesWithEveryone(form, ids);
  return (
    <fieldset className="qs-fieldset">
      <legend className="qs-label">{t('send.sharing.legend')}</legend>
      <label className="qs-choice qs-switch">
        <input
          type="checkbox"
          role="switch"
          checked={everyone}
          onChange={(e) => onChange((f) => setShareEveryone(f, ids, e.target.checked))}
        />
        <span>{t('send.sharing.everyone')}</span>
      </label>
      <ul className="qs-members">
        {members.map((m) => (
          <li key={m.shareWithId}>
            <label className="qs-choice">
              <input
                type="checkbox"
                checked={form.shareWith.includes(m.shareWithId)}
                onChange={() => onChange((f) => toggleShare(f, m.shareWithId))}
              />
              {m.shareWithProfilePic ? (
                <img className="qs-avatar" src={m.shareWithProfilePic} alt="" width={24} height={24} />
              ) : (
                <span className="qs-avatar" aria-hidden="true">
                  {(m.shareWithFullName || m.shareWithEmail).slice(0, 1).toUpperCase()}
                </span>
              )}
              <span>
                {m.shareWithFullName || m.shareWithEmail}
                {m.shareWithFullName && <span className="qs-muted"> · {m.shareWithEmail}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

export function ExpiryTab({
  form,
  sender,
  now,
  problem,
  fieldRef,
  onChange,
}: TabProps & { sender: SenderContext; now: number; problem?: string; fieldRef: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const name = useId();
  const dateId = useId();
  const options = expiryOptions(sender.role);
  const someLocked = options.some((o) => !o.allowed);
  const custom = form.expirySeconds === CUSTOM_DATE_MARKER;
  return (
    <div ref={fieldRef}>
      <div role="radiogroup" aria-label={t('send.expiry.legend')} className="qs-choices qs-choices-grid">
        {options.map((option) => (
          <label key={option.seconds} className={`qs-choice${option.allowed ? '' : ' qs-choice-locked'}`}>
            <input
              type="radio"
              name={name}
              value={option.seconds}
              checked={form.expirySeconds === option.seconds}
              disabled={!option.allowed}
              onChange={() => onChange((f) => selectExpiry(f, option.seconds, sender.role))}
            />
            <span>{t(`send.expiry.${expiryKey(option.seconds)}`)}</span>
          </label>
        ))}
      </div>
      {custom && (
        <div className="qs-field qs-date">
          <label className="qs-label" htmlFor={dateId}>
            {t('send.expiry.dateLabel')}
          </label>
          <CustomExpiryInput
            id={dateId}
            className="qs-input"
            value={form.customExpiryDate}
            now={now}
            invalid={!!problem}
            onChange={(value) => onChange((f) => setCustomExpiry(f, value))}
          />
        </div>
      )}
      {problem && <p className="qs-field-error">{problem}</p>}
      {someLocked && (
        <p className="qs-hint">
          {t('send.expiry.upgradeHint')} <Link to={paths.pricing({ plan: 'premium' })}>{t('send.toast.getTrial')}</Link>
        </p>
      )}
    </div>
  );
}

export function PasswordTab({
  form,
  problem,
  fieldRef,
  onChange,
}: TabProps & { problem?: string; fieldRef: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const inputId = useId();
  const tooShort = form.password.length > 0 && form.password.length < SEND_PASSWORD_MIN_LENGTH;
  const shown = problem ?? (tooShort ? t('send.errors.passwordTooShort') : undefined);
  return (
    <div ref={fieldRef} className="qs-field">
      <label className="qs-label" htmlFor={inputId}>
        {t('send.password.label')}
      </label>
      <PasswordInput
        id={inputId}
        rowClassName="qs-password"
        inputClassName="qs-input"
        toggleClassName="qs-link-button"
        value={form.password}
        invalid={Boolean(shown)}
        onChange={(value) => onChange((f) => setPassword(f, value))}
        testId="password-input"
      />
      <p id={`${inputId}-hint`} className={shown ? 'qs-field-error' : 'qs-hint'}>
        {shown ?? t('send.password.hint')}
      </p>
    </div>
  );
}
