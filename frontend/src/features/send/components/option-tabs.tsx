import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SEND_PASSWORD_MIN_LENGTH } from '@domain/input-rules';
import { paths } from '@/app/paths';
import { setPassword, setSendAs, type SendForm, type SenderContext } from '@/shared/send-form/send-state';
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

export function PasswordTab({
  form,
  encrypted,
  problem,
  fieldRef,
  onChange,
}: TabProps & { encrypted: boolean; problem?: string; fieldRef: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const inputId = useId();
  // an end-to-end encrypted send's key (or passphrase) already keeps the files from anyone without it
  if (encrypted) {
    return (
      <div ref={fieldRef} className="qs-field">
        <p className="qs-hint" data-testid="password-not-needed">
          {t('send.e2e.passwordNotNeeded')}
        </p>
      </div>
    );
  }
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
