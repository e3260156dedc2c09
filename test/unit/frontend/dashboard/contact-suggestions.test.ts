import { describe, expect, it } from 'vitest';
import type { ContactView } from '@domain/auth-api';
import { suggestContacts, typedSegment, withPickedSuggestion } from '@/shared/send-form/contact-suggestions';

const CONTACTS: ContactView[] = [
  { email: 'maria@acme.com', name: 'Maria Lopez', company: 'Acme' },
  { email: 'Bob@Builder.io', name: 'Bob Builder' },
  { email: 'carol@example.org', company: 'Marine Supplies' },
  { email: 'anna.maria@studio.it', name: 'Anna' },
  { email: 'MARIA@acme.com', name: 'Duplicate' },
  { email: '', name: 'No address' },
];

const emails = (list: ContactView[]) => list.map((c) => c.email);

describe('recipient suggestions from contacts', () => {
  it('matches what is typed by email, name or company, ignoring case', () => {
    expect(emails(suggestContacts(CONTACTS, 'BOB', []))).toEqual(['bob@builder.io']);
    expect(emails(suggestContacts(CONTACTS, 'lopez', []))).toEqual(['maria@acme.com']);
    expect(emails(suggestContacts(CONTACTS, 'supplies', []))).toEqual(['carol@example.org']);
  });

  it('lists matches at the start of a word before matches inside one', () => {
    expect(emails(suggestContacts(CONTACTS, 'mar', []))).toEqual([
      'maria@acme.com',
      'carol@example.org',
      'anna.maria@studio.it',
    ]);
    expect(emails(suggestContacts(CONTACTS, 'ria', []))).toEqual(['maria@acme.com', 'anna.maria@studio.it']);
    const ordered = [{ email: 'zmaria@x.com' }, { email: 'maria2@y.com' }];
    expect(emails(suggestContacts(ordered, 'maria', []))).toEqual(['maria2@y.com', 'zmaria@x.com']);
  });

  it('offers each address once, skips contacts without one, and leaves out those already added', () => {
    expect(emails(suggestContacts(CONTACTS, 'acme', []))).toEqual(['maria@acme.com']);
    expect(emails(suggestContacts(CONTACTS, 'no address', []))).toEqual([]);
    expect(emails(suggestContacts(CONTACTS, 'mar', ['maria@acme.com']))).toEqual([
      'carol@example.org',
      'anna.maria@studio.it',
    ]);
  });

  it('suggests nothing for an empty box, and at most a handful', () => {
    expect(suggestContacts(CONTACTS, '   ', [])).toEqual([]);
    expect(suggestContacts(undefined, 'mar', [])).toEqual([]);
    const many = Array.from({ length: 20 }, (_, i) => ({ email: `user${i}@team.com` }));
    expect(suggestContacts(many, 'user', [])).toHaveLength(6);
    expect(suggestContacts(many, 'user', [], 3)).toHaveLength(3);
  });

  it('looks only at the address being typed after a separator', () => {
    expect(typedSegment('bad text, bo')).toBe('bo');
    expect(emails(suggestContacts(CONTACTS, 'not-an-email, bo', []))).toEqual(['bob@builder.io']);
  });

  it('replaces only the address being typed when one is picked', () => {
    expect(withPickedSuggestion('bo', 'bob@builder.io')).toBe('bob@builder.io');
    expect(withPickedSuggestion('oops, bo', 'bob@builder.io')).toBe('oops, bob@builder.io');
  });
});
