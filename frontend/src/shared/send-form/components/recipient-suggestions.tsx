import type { ContactView } from '@domain/auth-api';

interface RecipientSuggestionsProps {
  readonly id: string;
  readonly labelId: string;
  readonly suggestions: readonly ContactView[];
  readonly expanded: boolean;
  /** the highlighted option, or -1 */
  readonly activeIndex: number;
  optionId(index: number): string;
  onPick(email: string): void;
}

/** The combobox's listbox: the contacts matching the typed text. */
export function RecipientSuggestions(props: RecipientSuggestionsProps) {
  const { id, labelId, suggestions, expanded, activeIndex, optionId, onPick } = props;
  return (
    <ul
      id={id}
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA in HTML allows listbox on ul (the APG combobox pattern)
      role="listbox"
      className="qs-suggestions"
      aria-labelledby={labelId}
      hidden={!expanded}
      data-testid="recipient-suggestions"
    >
      {expanded &&
        suggestions.map((contact, index) => (
          // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the input, which points at the option (aria-activedescendant)
          <li
            key={contact.email}
            id={optionId(index)}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA in HTML allows option on li (the APG combobox pattern)
            role="option"
            aria-selected={index === activeIndex}
            className="qs-suggestion"
            // mousedown, not click: the input must not blur first (blur would commit the half-typed text).
            onMouseDown={(event) => {
              event.preventDefault();
              onPick(contact.email);
            }}
            data-testid="recipient-suggestion"
          >
            <span className="qs-suggestion-email">{contact.email}</span>
            {(contact.name || contact.company) && (
              <span className="qs-suggestion-meta">{[contact.name, contact.company].filter(Boolean).join(' · ')}</span>
            )}
          </li>
        ))}
    </ul>
  );
}
