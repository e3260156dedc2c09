/** Recipient suggestions from the signed-in sender's contacts (spec §6: contacts offered as email suggestions). */
import type { ContactView } from '@domain/auth-api';

export const MAX_SUGGESTIONS = 6;

/** The address being typed: the text after the last separator of the recipient box. */
export function typedSegment(draft: string): string {
  const cut = Math.max(draft.lastIndexOf(','), draft.lastIndexOf(';'));
  return draft.slice(cut + 1).trim();
}

/** The draft with its last segment replaced by a picked address, ready to commit. */
export function withPickedSuggestion(draft: string, email: string): string {
  const cut = Math.max(draft.lastIndexOf(','), draft.lastIndexOf(';'));
  return cut < 0 ? email : `${draft.slice(0, cut + 1)} ${email}`;
}

/**
 * Contacts matching what is typed, case-insensitively, by email, name or company. Contacts
 * without an email are ignored and duplicates (by lower-cased email) dropped, as spec §5 says
 * of contacts; addresses already added are not offered again. Matches at the start of the
 * email or of a word of the name or company come before matches inside them.
 */
export function suggestContacts(
  contacts: readonly ContactView[] | undefined,
  draft: string,
  recipients: readonly string[],
  max = MAX_SUGGESTIONS,
): ContactView[] {
  const query = typedSegment(draft).toLowerCase();
  if (!contacts || query === '') return [];
  const taken = new Set(recipients.map((r) => r.toLowerCase()));
  const seen = new Set<string>();
  const starts: ContactView[] = [];
  const inside: ContactView[] = [];
  for (const contact of contacts) {
    const email = contact.email?.trim().toLowerCase();
    if (!email || seen.has(email) || taken.has(email)) continue;
    seen.add(email);
    const fields = [email, contact.name?.toLowerCase() ?? '', contact.company?.toLowerCase() ?? ''];
    if (fields.some((f) => f.startsWith(query) || f.split(/[\s.@_-]+/u).some((word) => word.startsWith(query))))
      starts.push({ ...contact, email });
    else if (fields.some((f) => f.includes(query))) inside.push({ ...contact, email });
  }
  return [...starts, ...inside].slice(0, max);
}
