/** The dashboard's calls (functions/domain/auth-api.ts), all with the signed-in user's token (GET /me is the session's reloadUser). */
import type * as z from 'zod/mini';
import type {
  ContactView,
  FolderSizeResponse,
  ImageUploadResponse,
  SessionUser,
  UpdateProfileInput,
  feedbackRequestSchema,
} from '@domain/auth-api';
import { ApiError } from '@/lib/api';
import { authedFetch } from '@/lib/session/session';
import type { ImageKind, ProfileApi } from '../profile';

export function updateProfile(body: UpdateProfileInput): Promise<SessionUser> {
  return authedFetch<SessionUser>('/v1/updateProfile', { method: 'POST', body });
}

export function requestImageUpload(body: { kind: ImageKind; contentType: string; size: number }): Promise<ImageUploadResponse> {
  return authedFetch<ImageUploadResponse>('/me/images', { method: 'POST', body });
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

export const profileApi: ProfileApi = { requestImageUpload, putFile, updateProfile };

export function fetchFolderSize(): Promise<FolderSizeResponse> {
  return authedFetch<FolderSizeResponse>('/folderSize', { method: 'POST', body: {} });
}

export async function fetchContacts(): Promise<ContactView[]> {
  const res = await authedFetch<{ contacts: ContactView[] }>('/quicksend2', { method: 'POST', body: {} });
  return res.contacts;
}

export function sendFeedback(body: z.output<typeof feedbackRequestSchema>): Promise<void> {
  return authedFetch<void>('/feedback', { method: 'POST', body });
}
