/**
 * The signed-in account's calls that several screens make (functions/domain/auth-api.ts): the
 * profile and settings update, a picture's upload to storage, and the contacts a send suggests.
 */
import type { ContactView, SessionUser, UpdateProfileInput } from '@domain/auth-api';
import { ApiError } from '@/lib/api';
import { authedFetch } from '@/lib/session/session';

export function updateProfile(body: UpdateProfileInput): Promise<SessionUser> {
  return authedFetch<SessionUser>('/v1/updateProfile', { method: 'POST', body });
}

/** The picture goes straight to storage with the signed headers; no token (the URL is the grant). */
export async function putFile(url: string, headers: Readonly<Record<string, string>>, file: Blob): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'PUT', headers, body: file });
  } catch (err) {
    throw new ApiError(0, 'network_error', err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw new ApiError(res.status, 'upload_failed', res.statusText || `Upload failed (${res.status})`);
}

export async function fetchContacts(): Promise<ContactView[]> {
  const res = await authedFetch<{ contacts: ContactView[] }>('/quicksend2', { method: 'POST', body: {} });
  return res.contacts;
}
