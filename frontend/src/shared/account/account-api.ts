/**
 * The signed-in account's calls (functions/domain/auth-api.ts), with the user's token: the profile
 * and settings update, a picture's upload to storage, the contacts a send suggests, the storage
 * used and the feedback form. One module for the screens that share them, so one chunk.
 */
import type * as z from 'zod/mini';
import type {
  ContactView,
  FolderSizeResponse,
  SessionUser,
  UpdateProfileInput,
  feedbackRequestSchema,
} from '@domain/auth-api';
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

export function fetchFolderSize(): Promise<FolderSizeResponse> {
  return authedFetch<FolderSizeResponse>('/folderSize', { method: 'POST', body: {} });
}

export function sendFeedback(body: z.output<typeof feedbackRequestSchema>): Promise<void> {
  return authedFetch<void>('/feedback', { method: 'POST', body });
}
