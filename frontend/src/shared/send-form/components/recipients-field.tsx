import { forwardRef, useId, type ClipboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactView } from '@domain/auth-api';
import { RecipientChips } from './recipient-chips';
import { RecipientSuggestions } from './recipient-suggestions';
import { useRecipientSuggestions } from './use-recipient-suggestions';

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
  /** the signed-in sender's contacts, offered as suggestions while typing */
  readonly contacts?: readonly ContactView[];
}

/**
 * Recipient chips (spec §5): Enter, comma or blur adds; a pasted list may use ';'. With
 * contacts it is a combobox (ARIA 1.2 list autocomplete): matching contacts are listed under
 * the box, arrows move through them, Enter or a click adds the highlighted one.
 */
export const RecipientsField = forwardRef<HTMLDivElement, RecipientsFieldProps>(function RecipientsField(
  { recipients, draft, invalid, problem, onType, onCommit, onRemove, contacts },
  ref,
) {
  const { t } = useTranslation();
  const id = useId();
  const inputId = `${id}-input`;
  const problemId = `${id}-problem`;
  const listId = `${id}-suggestions`;
  const optionId = (index: number) => `${id}-suggestion-${index}`;
  const { suggestions, expanded, activeIndex, setFocused, pick, onKeyDown } = useRecipientSuggestions({
    recipients,
    draft,
    contacts,
    onCommit,
    onRemove,
  });

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
    <div ref={ref} className={`qs-field qs-recipients${invalid || problem ? ' qs-field-invalid' : ''}`}>
      <label id={`${id}-label`} htmlFor={inputId} className="qs-label">
        {invalid ? t('send.form.invalidEmailTo') : t('send.form.emailToLabel')}
      </label>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions lint/a11y/noNoninteractiveElementInteractions: a pointer convenience (a click beside the chips focuses the box); the keyboard reaches the input itself */}
      <div className="qs-chips" onClick={(e) => e.currentTarget.querySelector('input')?.focus()}>
        <RecipientChips recipients={recipients} onRemove={onRemove} />
        <input
          id={inputId}
          className="qs-chip-input"
          type="text"
          inputMode="email"
          // the browser's own address list would cover the contact suggestions
          autoComplete={contacts ? 'off' : 'email'}
          autoCapitalize="none"
          spellCheck={false}
          value={draft}
          placeholder={recipients.length === 0 ? t('send.form.emailToPlaceholder') : ''}
          aria-invalid={invalid || undefined}
          aria-describedby={problem ? problemId : undefined}
          {...(contacts && {
            role: 'combobox',
            'aria-autocomplete': 'list' as const,
            'aria-expanded': expanded,
            'aria-controls': listId,
            'aria-activedescendant': activeIndex >= 0 ? optionId(activeIndex) : undefined,
          })}
          onChange={(e) => onType(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            if (draft.trim() !== '') onCommit(draft);
          }}
          data-testid="recipients-input"
        />
      </div>
      {contacts && (
        <RecipientSuggestions
          id={listId}
          labelId={`${id}-label`}
          suggestions={suggestions}
          expanded={expanded}
          activeIndex={activeIndex}
          optionId={optionId}
          onPick={pick}
        />
      )}
      {problem && (
        <p id={problemId} className="qs-field-error">
          {problem}
        </p>
      )}
    </div>
  );
});
