import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEND_PASSWORD_MIN_LENGTH } from '@domain/validation';
import { PasswordInput } from '@/shared/send-form/components/password-input';
import { changePassword } from '../api/transfers-api';
import { PanelForm, type PanelProps } from './panel-form';

export function PasswordPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const inputId = useId();
  const [password, setPassword] = useState('');
  const tooShort = password.length > 0 && password.length < SEND_PASSWORD_MIN_LENGTH;
  return (
    <PanelForm
      title={t('password.title')}
      submit={t('password.save')}
      busy={busy}
      canSubmit={password.length >= SEND_PASSWORD_MIN_LENGTH}
      onCancel={onCancel}
      onSubmit={() =>
        void run(async () => {
          await changePassword({ slug: detail.slug, password });
          return t('password.saved');
        })
      }
    >
      <p className="muted">{detail.hasPassword ? t('password.leadOn') : t('password.leadOff')}</p>
      <div className="tr-field">
        <label className="tr-label" htmlFor={inputId}>
          {t('password.label')}
        </label>
        <PasswordInput
          id={inputId}
          rowClassName="tr-copy-row"
          inputClassName="field-input"
          toggleClassName="btn btn-ghost btn-sm"
          value={password}
          invalid={tooShort}
          onChange={setPassword}
          testId="transfer-password-input"
        />
        <p id={`${inputId}-hint`} className={tooShort ? 'tr-field-error' : 'muted tr-hint'}>
          {tooShort ? tApp('send.errors.passwordTooShort') : t('password.hint')}
        </p>
      </div>
      {detail.hasPassword && (
        <button
          type="button"
          className="btn btn-ghost btn-sm tr-danger"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await changePassword({ slug: detail.slug, password: null });
              return t('password.removed');
            })
          }
          data-testid="transfer-password-remove"
        >
          {t('password.remove')}
        </button>
      )}
    </PanelForm>
  );
}
