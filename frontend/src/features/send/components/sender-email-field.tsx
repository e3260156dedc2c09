import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { FormField } from './form-field';

interface SenderEmailFieldProps {
  readonly fieldRef: RefObject<HTMLDivElement | null>;
  readonly value: string;
  readonly problem: string | undefined;
  onChange(value: string): void;
}

/** A signed-out sender's own address, with the hint that signing up avoids verifying it. */
export function SenderEmailField({ fieldRef, value, problem, onChange }: SenderEmailFieldProps) {
  const { t } = useTranslation();
  return (
    <FormField label={t('send.form.senderEmailLabel')} fieldRef={fieldRef} problem={problem}>
      {(inputId, describedBy) => (
        <>
          <input
            id={inputId}
            className="qs-input"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            value={value}
            placeholder={t('send.form.senderEmailPlaceholder')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${describedBy} ${inputId}-hint`}
            onChange={(e) => onChange(e.target.value)}
            data-testid="sender-email"
          />
          <p id={`${inputId}-hint`} className="qs-hint">
            {t('send.form.senderEmailHint')} <Link to={paths.pricing()}>{t('send.form.avoidVerifying')}</Link>
          </p>
        </>
      )}
    </FormField>
  );
}
