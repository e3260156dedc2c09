import { forwardRef, useId, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactView } from '@domain/auth-api';
import { suggestContacts, withPickedSuggestion } from '../contact-suggestions';
import { XIcon } from '@/components/send-icons';

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
  const [focused, setFocused] = useState(false);
  // Escape hides the list until the text changes; the highlight also resets with the text.
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [active, setActive] = useState<{ draft: string; index: number }>({ draft: '', index: -1 });
  const suggestions = contacts ? suggestContacts(contacts, draft, recipients) : [];
  const expanded = focused && suggestions.length > 0 && dismissedFor !== draft;
  const activeIndex = expanded && active.draft === draft && active.index < suggestions.length ? active.index : -1;
  const optionId = (index: number) => `${id}-suggestion-${index}`;

  const pick = (email: string) => {
    onCommit(withPickedSuggestion(draft, email));
    setActive({ draft: '', index: -1 });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (expanded && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const last = suggestions.length - 1;
      const index =
        event.key === 'ArrowDown'
          ? activeIndex >= last
            ? 0
            : activeIndex + 1
          : activeIndex <= 0
            ? last
            : activeIndex - 1;
      setActive({ draft, index });
    } else if (expanded && event.key === 'Escape') {
      event.preventDefault();
      setDismissedFor(draft);
    } else if (event.key === 'Enter') {
      // Enter adds the address; it must not submit the form.
      event.preventDefault();
      const chosen = activeIndex >= 0 ? suggestions[activeIndex] : undefined;
      if (chosen) pick(chosen.email);
      else if (draft.trim() !== '') onCommit(draft);
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
    <div ref={ref} className={`qs-field qs-recipients${invalid || problem ? ' qs-field-invalid' : ''}`}>
      <label id={`${id}-label`} htmlFor={inputId} className="qs-label">
        {invalid ? t('send.form.invalidEmailTo') : t('send.form.emailToLabel')}
      </label>
      <div className="qs-chips" onClick={(e) => e.currentTarget.querySelector('input')?.focus()}>
        {recipients.length > 0 && (
          <ul className="qs-chip-list" aria-label={t('send.form.recipientsLabel')}>
            {recipients.map((email) => (
              <li key={email} className="qs-chip">
                <span>{email}</span>
                <button
                  type="button"
                  className="qs-chip-remove"
                  aria-label={t('send.form.removeRecipient', { email })}
                  onClick={() => onRemove(email)}
                >
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
        <ul
          id={listId}
          role="listbox"
          className="qs-suggestions"
          aria-labelledby={`${id}-label`}
          hidden={!expanded}
          data-testid="recipient-suggestions"
        >
          {expanded &&
            suggestions.map((contact, index) => (
              <li
                key={contact.email}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                className="qs-suggestion"
                // mousedown, not click: the input must not blur first (blur would commit the half-typed text).
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(contact.email);
                }}
                data-testid="recipient-suggestion"
              >
                <span className="qs-suggestion-email">{contact.email}</span>
                {(contact.name || contact.company) && (
                  <span className="qs-suggestion-meta">
                    {[contact.name, contact.company].filter(Boolean).join(' · ')}
                  </span>
                )}
              </li>
            ))}
        </ul>
      )}
      {problem && (
        <p id={problemId} className="qs-field-error">
          {problem}
        </p>
      )}
    </div>
  );
});
