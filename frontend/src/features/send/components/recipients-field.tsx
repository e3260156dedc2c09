import { forwardRef, useId, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { XIcon } from './send-icons';

interface RecipientsFieldProps {
  readonly recipients: readonly string[];
  readonly draft: string;
  readonly invalid: boolean;
  /** translated problem shown under the field after a send attempt */
  readonly problem?: string;
  onType(text: string): void;
  /** Enter, blur, or a pasted list: turn the text into chips */
  onCommit(text: string): void;
  onRemove(email: string): void;
}

/** Recipient chips (spec §5): Enter, comma or blur adds; a pasted list may use ';'. */
export const RecipientsField = forwardRef<HTMLDivElement, RecipientsFieldProps>(function RecipientsField(
  { recipients, draft, invalid, problem, onType, onCommit, onRemove },
  ref,
) {
  const { t } = useTranslation();
  const id = useId();
  const inputId = `${id}-input`;
  const problemId = `${id}-problem`;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Enter adds the address; it must not submit the form.
      event.preventDefault();
      if (draft.trim() !== '') onCommit(draft);
    } else if (event.key === 'Backspace' && draft === '' && recipients.length > 0) {
      onRemove(recipients[recipients.length - 1]!);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text');
    if (!/[;,\s]/u.test(pasted.trim())) return;
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? draft.length;
    const end = input.selectionEnd ?? draft.length;
    onCommit(draft.slice(0, start) + pasted + draft.slice(end));
  };

  return (
    <div ref={ref} className={`qs-field${invalid || problem ? ' qs-field-invalid' : ''}`}>
      <label htmlFor={inputId} className="qs-label">
        {invalid ? t('send.form.invalidEmailTo') : t('send.form.emailToLabel')}
      </label>
      <div className="qs-chips" onClick={(e) => e.currentTarget.querySelector('input')?.focus()}>
        {recipients.length > 0 && (
          <ul className="qs-chip-list" aria-label={t('send.form.recipientsLabel')}>
            {recipients.map((email) => (
              <li key={email} className="qs-chip">
                <span>{email}</span>
                <button type="button" className="qs-chip-remove" aria-label={t('send.form.removeRecipient', { email })} onClick={() => onRemove(email)}>
                  <XIcon width={12} height={12} />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={inputId}
          className="qs-chip-input"
          type="text"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={draft}
          placeholder={recipients.length === 0 ? t('send.form.emailToPlaceholder') : ''}
          aria-invalid={invalid || undefined}
          aria-describedby={problem ? problemId : undefined}
          onChange={(e) => onType(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => {
            if (draft.trim() !== '') onCommit(draft);
          }}
          data-testid="recipients-input"
        />
      </div>
      {problem && (
        <p id={problemId} className="qs-field-error">
          {problem}
        </p>
      )}
    </div>
  );
});
