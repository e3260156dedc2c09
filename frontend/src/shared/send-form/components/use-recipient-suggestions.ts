import { useState, type KeyboardEvent } from 'react';
import type { ContactView } from '@domain/auth-api';
import { suggestContacts, withPickedSuggestion } from '../contact-suggestions';

interface SuggestionsInput {
  readonly recipients: readonly string[];
  readonly draft: string;
  readonly contacts: readonly ContactView[] | undefined;
  onCommit(text: string): void;
  onRemove(email: string): void;
}

/**
 * The recipient box's keys and contact suggestions: arrows move the highlight, Escape hides the
 * list until the text changes, Enter adds the highlighted contact or the typed text, Backspace
 * in an empty box removes the last chip.
 */
export function useRecipientSuggestions({ recipients, draft, contacts, onCommit, onRemove }: SuggestionsInput) {
  const [focused, setFocused] = useState(false);
  // Escape hides the list until the text changes; the highlight also resets with the text.
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [active, setActive] = useState<{ draft: string; index: number }>({ draft: '', index: -1 });
  const suggestions = contacts ? suggestContacts(contacts, draft, recipients) : [];
  const expanded = focused && suggestions.length > 0 && dismissedFor !== draft;
  const activeIndex = expanded && active.draft === draft && active.index < suggestions.length ? active.index : -1;

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

  return { suggestions, expanded, activeIndex, setFocused, pick, onKeyDown };
}
