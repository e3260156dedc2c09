/** The dashboard's calls (functions/domain/auth-api.ts), all with the signed-in user's token (GET /me is the session's reloadUser). */
import type * as z from 'zod/mini';
import type { FolderSizeResponse, ImageUploadResponse, feedbackRequestSchema } from '@domain/auth-api';
import { authedFetch } from '@/lib/session/session';
import { putFile, updateProfile } from '@/shared/account/account-api';
import type { ImageKind, ProfileApi } from '../profile';

export function requestImageUpload(body: { kind: ImageKind; contentType: string; size: number }): Promise<ImageUploadResponse> {
  return authedFetch<ImageUploadResponse>('/me/images', { method: 'POST', body });
}

export const profileApi: ProfileApi = { requestImageUpload, putFile, updateProfile };

export function fetchFolderSize(): Promise<FolderSizeResponse> {
  return authedFetch<FolderSizeResponse>('/folderSize', { method: 'POST', body: {} });
}

export function sendFeedback(body: z.output<typeof feedbackRequestSchema>): Promise<void> {
  return authedFetch<void>('/feedback', { method: 'POST', body });
}
