/** Calls of the branding screens (functions/domain/branding-api.ts). */
import type { ImageUploadResponse } from '@domain/auth-api';
import type { BrandingUpdateInput, OwnBranding } from '@domain/branding-api';
import type { BrandImageKind } from '@domain/branding';
import { authedFetch } from '@/lib/session/session';

export function fetchOwnBranding(): Promise<OwnBranding> {
  return authedFetch<OwnBranding>('/branding/me');
}

export function saveBranding(body: BrandingUpdateInput): Promise<OwnBranding> {
  return authedFetch<OwnBranding>('/branding/me', { method: 'PATCH', body });
}

export function requestBrandImageUpload(body: {
  kind: BrandImageKind;
  contentType: string;
  size: number;
}): Promise<ImageUploadResponse> {
  return authedFetch<ImageUploadResponse>('/branding/images', { method: 'POST', body });
}
