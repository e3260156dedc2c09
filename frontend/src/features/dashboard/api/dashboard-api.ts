/** The profile screen's picture upload (functions/domain/auth-api.ts), with the signed-in user's token. */
import type { ImageUploadResponse } from '@domain/auth-api';
import { authedFetch } from '@/lib/session/session';
import { putFile, updateProfile } from '@/shared/account/account-api';
import type { ImageKind, ProfileApi } from '../profile';

export function requestImageUpload(body: {
  kind: ImageKind;
  contentType: string;
  size: number;
}): Promise<ImageUploadResponse> {
  return authedFetch<ImageUploadResponse>('/me/images', { method: 'POST', body });
}

export const profileApi: ProfileApi = { requestImageUpload, putFile, updateProfile };
