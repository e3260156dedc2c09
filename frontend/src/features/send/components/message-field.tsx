import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_MAX_LENGTH } from '@domain/input-rules';
import { FormField } from './form-field';

interface MessageFieldProps {
  readonly fieldRef: RefObject<HTMLDivElement | null>;
  readonly value: string;
  readonly problem: string | undefined;
  onChange(value: string): void;
}

/** The optional message to the recipients, with its character counter. */
export function MessageField({ fieldRef, value, problem, onChange }: MessageFieldProps) {
  const { t } = useTranslation();
  return (
    <FormField label={t('send.form.messageLabel')} fieldRef={fieldRef} problem={problem}>
      {(inputId, describedBy) => (
        <>
          <textarea
            id={inputId}
            className="qs-input qs-textarea"
            rows={2}
            maxLength={MESSAGE_MAX_LENGTH}
            value={value}
            placeholder={t('send.form.messagePlaceholder')}
            aria-describedby={`${describedBy} ${inputId}-count`}
            onChange={(e) => onChange(e.target.value)}
            data-testid="message"
          />
          <p id={`${inputId}-count`} className="qs-counter">
            {t('send.form.messageCounter', { used: value.length, max: MESSAGE_MAX_LENGTH })}
          </p>
        </>
      )}
    </FormField>
  );
}
