/** Profile form and picture rules (spec §3 User; auth-api's updateProfileSchema and imageUploadSchema). */
import {
  IMAGE_MAX_BYTES,
  imageUploadSchema,
  updateProfileSchema,
  type ImageUploadResponse,
  type SessionUser,
  type UpdateProfileInput,
} from '@domain/auth-api';

export type ImageKind = 'profile' | 'logo';
export type ImageProblem = 'type' | 'size' | 'empty';

/** Checked before anything is uploaded: images only (PNG, JPEG, GIF, WebP), at most 5 MB. */
export function imageProblem(file: { readonly type: string; readonly size: number }): ImageProblem | null {
  const parsed = imageUploadSchema.safeParse({ kind: 'profile', contentType: file.type, size: file.size });
  if (parsed.success) return null;
  const fields = parsed.error.issues.map((issue) => issue.path[0]);
  if (fields.includes('contentType')) return 'type';
  return file.size > IMAGE_MAX_BYTES ? 'size' : 'empty';
}

export interface ProfileApi {
  requestImageUpload(body: { kind: ImageKind; contentType: string; size: number }): Promise<ImageUploadResponse>;
  putFile(url: string, headers: Readonly<Record<string, string>>, file: Blob): Promise<void>;
  updateProfile(body: UpdateProfileInput): Promise<SessionUser>;
}

export class ImageRejectedError extends Error {
  constructor(readonly problem: ImageProblem) {
    super(`image rejected: ${problem}`);
    this.name = 'ImageRejectedError';
  }
}

/**
 * A new picture or logo: ask for a signed PUT, send the bytes straight to storage, then point
 * the profile at the new key. Returns the updated user (its picture URL is short-lived).
 */
export async function uploadProfileImage(kind: ImageKind, file: Blob, api: ProfileApi): Promise<SessionUser> {
  const problem = imageProblem(file);
  if (problem) throw new ImageRejectedError(problem);
  const target = await api.requestImageUpload({ kind, contentType: file.type, size: file.size });
  await api.putFile(target.url, target.headers, file);
  return api.updateProfile(kind === 'profile' ? { profilePicKey: target.key } : { logoPicKey: target.key });
}

/** '' removes the picture (updateProfileSchema). */
export function removeImageBody(kind: ImageKind): UpdateProfileInput {
  return kind === 'profile' ? { profilePicKey: '' } : { logoPicKey: '' };
}

export interface ProfileFields {
  readonly fullName: string;
  readonly greetingName: string;
  readonly company: string;
}

export function profileFields(user: Pick<SessionUser, 'fullName' | 'greetingName' | 'company'>): ProfileFields {
  return { fullName: user.fullName, greetingName: user.greetingName ?? '', company: user.company ?? '' };
}

export type ProfileFieldProblem = 'fullNameRequired' | 'tooLong';

export type ProfileChanges =
  | { readonly ok: true; readonly body: UpdateProfileInput; readonly changed: boolean }
  | { readonly ok: false; readonly problems: Partial<Record<keyof ProfileFields, ProfileFieldProblem>> };

/** The fields that differ from the saved user, trimmed and checked by updateProfileSchema. */
export function profileChanges(saved: ProfileFields, edited: ProfileFields): ProfileChanges {
  const body: Record<string, string> = {};
  for (const field of ['fullName', 'greetingName', 'company'] as const) {
    if (edited[field].trim() !== saved[field].trim()) body[field] = edited[field].trim();
  }
  const parsed = updateProfileSchema.safeParse(body);
  if (!parsed.success) {
    const problems: Partial<Record<keyof ProfileFields, ProfileFieldProblem>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'fullName' || field === 'greetingName' || field === 'company') {
        problems[field] = field === 'fullName' && edited.fullName.trim() === '' ? 'fullNameRequired' : 'tooLong';
      }
    }
    return { ok: false, problems };
  }
  return { ok: true, body: parsed.data, changed: Object.keys(parsed.data).length > 0 };
}

/** The name the dashboard greets: the greeting name, else the first name, else the email's local part. */
export function greetingNameOf(user: Pick<SessionUser, 'greetingName' | 'fullName' | 'email'>): string {
  const greeting = user.greetingName?.trim();
  if (greeting) return greeting;
  const first = user.fullName.trim().split(/\s+/u)[0];
  if (first) return first;
  return user.email.split('@')[0] ?? user.email;
}

/** Avatar letters when there is no picture: first and last name initials, else the email's first letter. */
export function initialsOf(user: Pick<SessionUser, 'fullName' | 'email'>): string {
  const words = user.fullName.trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  const initials = letters.map((w) => Array.from(w)[0] ?? '').join('');
  return (initials || Array.from(user.email)[0] || '?').toLocaleUpperCase();
}
