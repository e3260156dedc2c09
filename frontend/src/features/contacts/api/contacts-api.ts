/**
 * The contacts screen's calls (functions/domain/contacts-api.ts), all with the signed-in user's
 * token. Changes are not retried on 5xx: an add or an import whose answer was lost may still
 * have happened.
 */
import type {
  AddContactInput,
  ContactImportResult,
  ContactListResponse,
  ContactRow,
  EditContactInput,
} from '@domain/contacts-api';
import { authedFetch } from '@/lib/session/session';

const once = { retries: 0 } as const;

export function fetchContacts(q = '', signal?: AbortSignal): Promise<ContactListResponse> {
  const query = q.trim() ? `?${new URLSearchParams({ q: q.trim() }).toString()}` : '';
  return authedFetch<ContactListResponse>(`/contacts${query}`, signal ? { signal } : {});
}

export async function addContact(body: AddContactInput): Promise<ContactRow> {
  return (await authedFetch<{ contact: ContactRow }>('/contacts', { method: 'POST', body, ...once })).contact;
}

export async function editContact(body: EditContactInput): Promise<ContactRow> {
  return (await authedFetch<{ contact: ContactRow }>('/contacts', { method: 'PATCH', body, ...once })).contact;
}

export function removeContact(email: string): Promise<{ removed: true }> {
  return authedFetch<{ removed: true }>('/contacts/remove', { method: 'POST', body: { email }, ...once });
}

export function importContacts(csv: string): Promise<ContactImportResult> {
  return authedFetch<ContactImportResult>('/contacts/import', {
    method: 'POST',
    body: { csv },
    ...once,
    timeoutMs: 60_000,
  });
}

/** GET /contacts/export: the CSV text (the screen saves it as contacts.csv). */
export function exportContacts(): Promise<string> {
  return authedFetch<string>('/contacts/export', { responseType: 'text', headers: { accept: 'text/csv' } });
}
