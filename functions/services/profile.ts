/** The signed-in user's own data: profile edits, pictures, storage, feedback (spec §2, §3, §5). Contacts: services/contacts.ts. */
import { randomString } from '../domain/slug';
import { storageState } from '../domain/storage';
import { limitsFor, resolveRole } from '../domain/plans';
import {
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  type FolderSizeResponse,
  type ImageUploadResponse,
  type SessionUser,
  type UpdateProfileInput,
} from '../domain/auth-api';
import { putFeedback, updateProfile as writeProfile, type UserProfile } from '../data/users';
import * as storage from '../adapters/storage';
import { config } from '../lib/env';
import { badRequest } from '../lib/errors';
import { requireProfile, sessionUser } from './accounts';
import { storageOwnerOf } from './limits';
import { checkedSettings } from './settings';
import { acceptBrandImage, removeReplaced, requireBrandingEditor } from './branding';
import { SNIFF_BYTES, sniffImageType } from '../domain/branding';
import { randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const IMAGE_PUT_SECONDS = 600;

function imageRef(key: string) {
  return { regionId: config().defaultRegion, anon: false, key };
}

/** POST /me/images: a presigned PUT under the user's own prefix, type and size pinned. */
export async function imageUpload(
  userId: string,
  kind: 'profile' | 'logo',
  contentType: string,
  size: number,
): Promise<ImageUploadResponse> {
  const key = `u/${userId}/${kind}-${randomString(12, ALNUM)}`;
  const url = await storage.presignTypedPut(imageRef(key), contentType, size, IMAGE_PUT_SECONDS);
  return { url, key, headers: { 'content-type': contentType } };
}

/** A picture key must be the user's own upload, present, an image and within the size cap. */
async function checkImageKey(userId: string, key: string): Promise<void> {
  if (!key.startsWith(`u/${userId}/`) || key.includes('..'))
    throw badRequest('invalid_picture', 'This picture does not belong to your account.');
  const head = await storage.objectHead(imageRef(key));
  if (!head) throw badRequest('invalid_picture', 'Upload the picture first.');
  if (head.size > IMAGE_MAX_BYTES) throw badRequest('invalid_picture', 'Pictures can be at most 5 MB');
  if (head.contentType && !(IMAGE_TYPES as readonly string[]).includes(head.contentType)) {
    throw badRequest('invalid_picture', 'Pictures must be PNG, JPEG, GIF or WebP');
  }
  // the stored bytes decide, not the declared type (domain/branding.ts sniffImageType)
  const bytes = await storage.readObjectHead(imageRef(key), SNIFF_BYTES);
  if (!bytes || !sniffImageType(bytes))
    throw badRequest('image_content_invalid', 'This file is not a PNG, JPEG, GIF or WebP image.');
}

/** POST /v1/updateProfile */
export async function updateOwnProfile(userId: string, edit: UpdateProfileInput): Promise<SessionUser> {
  if (edit.profilePicKey) await checkImageKey(userId, edit.profilePicKey);
  // the logo is branding: checked by its bytes and copied to a checked key (services/branding.ts); members may not change it.
  if (edit.logoPicKey !== undefined || edit.showLogoNav !== undefined)
    requireBrandingEditor(await requireProfile(userId));
  if (edit.logoPicKey) edit = { ...edit, logoPicKey: await acceptBrandImage(userId, 'logo', edit.logoPicKey) };
  const previousLogo = edit.logoPicKey !== undefined ? (await requireProfile(userId)).logoPicKey : undefined;
  // Settings are checked against the plan and merged with the saved ones (services/settings.ts).
  const settings =
    edit.transferSettings || edit.requestSettings ? await checkedSettings(await requireProfile(userId), edit) : {};
  const { transferSettings: _t, requestSettings: _r, ...rest } = edit;
  await writeProfile(userId, { ...rest, ...settings });
  if (edit.logoPicKey !== undefined) await removeReplaced(previousLogo, edit.logoPicKey || null);
  return sessionUser(await requireProfile(userId));
}

/** POST /folderSize: the storage the user's sends count against (the team admin's for members). */
export async function folderSize(profile: UserProfile): Promise<FolderSizeResponse> {
  const owner = await storageOwnerOf(profile);
  const limit = limitsFor(resolveRole({ customerRole: owner.role })).storage;
  const size = Math.max(0, owner.storageUsed ?? 0);
  return { size, limit, state: storageState(size, limit) };
}

export async function saveFeedback(
  profile: UserProfile,
  f: { message: string; rating?: string; route?: string; sessionUrl?: string; email?: string },
  now = Date.now(),
): Promise<void> {
  await putFeedback(
    {
      userId: profile.userId,
      email: f.email ?? profile.email,
      message: f.message,
      ...(f.rating ? { rating: f.rating } : {}),
      role: profile.role ?? 'free',
      fullName: profile.fullName ?? '',
      company: profile.company ?? '',
      ...(f.route ? { route: f.route } : {}),
      ...(f.sessionUrl ? { sessionUrl: f.sessionUrl } : {}),
    },
    now,
    randomUUID(),
  );
}
