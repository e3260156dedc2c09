import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEND_PASSWORD_MIN_LENGTH } from '@domain/input-rules';

/**
 * A transfer's new password with its Show / Hide toggle (`aria-pressed`): the send options and the
 * transfer's password panel. The hint under it has the id `${id}-hint`, which describes the field.
 */
export function PasswordInput(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  rowClassName: string;
  inputClassName: string;
  toggleClassName: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <div className={props.rowClassName}>
      <input
        id={props.id}
        className={props.inputClassName}
        type={visible ? 'text' : 'password'}
        autoComplete="new-password"
        minLength={SEND_PASSWORD_MIN_LENGTH}
        value={props.value}
        aria-invalid={props.invalid || undefined}
        aria-describedby={`${props.id}-hint`}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
      <button
        type="button"
        className={props.toggleClassName}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? t('send.password.hide') : t('send.password.show')}
      </button>
    </div>
  );
}
