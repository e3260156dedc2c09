import { BRAND_IMAGE_MAX_BYTES, BRAND_IMAGE_TYPES, type BrandImageKind } from '@domain/branding';

/** Checked before uploading (the server checks the stored bytes again): type by the browser, size by the kind's cap. */
export function brandImageProblem(
  kind: BrandImageKind,
  file: { readonly type: string; readonly size: number },
): 'type' | 'size' | null {
  if (!(BRAND_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size === 0 || file.size > BRAND_IMAGE_MAX_BYTES[kind]) return 'size';
  return null;
}
