/**
 * Branding (spec §2 customize and powered-by, §3 logoPic / showLogoNav): the storage
 * owner's logo, download-page background, accent colour and the 'Powered by' choice, what a
 * recipient's page gets of them, and the public branding of a verified custom domain's host.
 */
import {
  BRAND_IMAGE_MAX_BYTES,
  EXTENSION_OF,
  IMAGE_STAGING_PREFIX,
  SNIFF_BYTES,
  canRemovePoweredBy,
  normalizeHexColour,
  readableTextOn,
  sniffImageType,
  type BrandImageKind,
  type BrandImageType,
} from '../domain/branding';
import type { BrandingUpdateInput, HostBranding, OwnBranding, PublicBranding } from '../domain/branding-api';
import type { ImageUploadResponse } from '../domain/auth-api';
import { resolveRole } from '../domain/plans';
import { randomString } from '../domain/slug';
import { IMAGE_URL_EXPIRES_SECONDS } from '../domain/upload';
import { getBranding, updateBranding } from '../data/branding';
import { liveDomainOwner } from '../data/custom-domains';
import { getProfile, updateProfile, type UserProfile } from '../data/users';
import * as storage from '../adapters/storage';
import { config } from '../lib/env';
import { badRequest, forbidden, notFound } from '../lib/errors';
import { log } from '../lib/log';
import { storageOwnerOf } from './limits';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const IMAGE_PUT_SECONDS = 600;
const TYPE_OF_EXTENSION = Object.fromEntries(Object.entries(EXTENSION_OF).map(([t, e]) => [e, t])) as Record<
  string,
  BrandImageType
>;

const ref = (key: string) => ({ regionId: config().defaultRegion, anon: false, key });

/** Team members see the admin's branding and cannot change it (spec §2: branding per storage owner). */
export function requireBrandingEditor(profile: UserProfile): void {
  if (profile.isTeamMember) throw forbidden('team_member_forbidden', "Your team's admin manages the branding.");
}

/** An unchecked upload's prefix (IMAGE_STAGING_PREFIX, emptied by the bucket's lifecycle). */
const stagingPrefixOf = (userId: string) => `${IMAGE_STAGING_PREFIX}u/${userId}/up-`;

/** POST /branding/images: a presigned PUT under the caller's own prefix, type and length signed. */
export async function brandImageUpload(
  profile: UserProfile,
  kind: BrandImageKind,
  contentType: BrandImageType,
  size: number,
): Promise<ImageUploadResponse> {
  requireBrandingEditor(profile);
  if (size > BRAND_IMAGE_MAX_BYTES[kind])
    throw badRequest(
      'image_too_large',
      `This image is too large (at most ${BRAND_IMAGE_MAX_BYTES[kind] / 1024 / 1024} MB).`,
    );
  const key = `${stagingPrefixOf(profile.userId)}${kind}-${randomString(12, ALNUM)}.${EXTENSION_OF[contentType]}`;
  const url = await storage.presignTypedPut(ref(key), contentType, size, IMAGE_PUT_SECONDS);
  return { url, key, headers: { 'content-type': contentType } };
}

/** The image type a stored branding key was checked to be (its extension, set when accepted). */
export function checkedTypeOf(key: string): BrandImageType | undefined {
  const m = /^u\/[^/]+\/brand-(?:logo|background)-[A-Za-z0-9]{12}\.(png|jpg|gif|webp)$/u.exec(key);
  return m ? TYPE_OF_EXTENSION[m[1]!] : undefined;
}

/**
 * An uploaded image becomes a branding image only after its stored bytes are checked: the
 * caller's own key, present, not empty, under the kind's cap, and PNG/JPEG/GIF/WebP by magic
 * number (the declared type and the name count for nothing; SVG and markup are refused). It
 * is then copied to a key no presigned PUT can write, whose extension records the checked type.
 */
export async function acceptBrandImage(userId: string, kind: BrandImageKind, key: string): Promise<string> {
  if (checkedTypeOf(key) && key.startsWith(`u/${userId}/brand-${kind}-`)) return key; // already accepted (saved again)
  if (
    !key.startsWith(stagingPrefixOf(userId)) ||
    key.includes('..') ||
    key.slice(stagingPrefixOf(userId).length).includes('/')
  ) {
    throw forbidden('not_your_image', 'This image does not belong to your account.');
  }
  const head = await storage.objectHead(ref(key));
  if (!head) throw badRequest('invalid_picture', 'Upload the picture first.');
  if (head.size === 0) throw badRequest('image_content_invalid', 'This file is empty.');
  if (head.size > BRAND_IMAGE_MAX_BYTES[kind])
    throw badRequest(
      'image_too_large',
      `This image is too large (at most ${BRAND_IMAGE_MAX_BYTES[kind] / 1024 / 1024} MB).`,
    );
  const bytes = await storage.readObjectHead(ref(key), SNIFF_BYTES);
  const type = bytes ? sniffImageType(bytes) : null;
  if (!type) throw badRequest('image_content_invalid', 'This file is not a PNG, JPEG, GIF or WebP image.');
  const accepted = `u/${userId}/brand-${kind}-${randomString(12, ALNUM)}.${EXTENSION_OF[type]}`;
  await storage.copyObject(ref(key), ref(accepted), head.size);
  await storage
    .deleteObject(ref(key))
    .catch((err: unknown) => log.warn('upload not removed', { key, error: String(err) }));
  return accepted;
}

/** A short-lived URL of a checked image, with its checked type; none for keys from before the checks. */
export async function brandImageUrl(key: string | undefined): Promise<string | null> {
  const type = key ? checkedTypeOf(key) : undefined;
  if (!key || !type) return null;
  return storage.presignImage(ref(key), type, IMAGE_URL_EXPIRES_SECONDS);
}

/** Deletes a checked branding image that `next` replaced (undefined: not changed). */
export async function removeReplaced(old: string | undefined, next: string | null | undefined): Promise<void> {
  if (next === undefined || !old || old === next || !checkedTypeOf(old)) return;
  await storage
    .deleteObject(ref(old))
    .catch((err: unknown) => log.warn('replaced image not removed', { key: old, error: String(err) }));
}

/** What recipients see of a storage owner's branding; the plan decides whether 'Powered by' may go. */
export async function publicBrandingOf(owner: UserProfile): Promise<PublicBranding> {
  const b = await getBranding(owner.userId);
  const role = resolveRole({ customerRole: owner.role });
  const [logoUrl, backgroundUrl] = await Promise.all([brandImageUrl(owner.logoPicKey), brandImageUrl(b.backgroundKey)]);
  return {
    logoUrl,
    backgroundUrl,
    backgroundColor: b.backgroundColor ?? null,
    accentColor: b.accentColor ?? null,
    accentTextColor: b.accentColor ? readableTextOn(b.accentColor) : null,
    showPoweredBy: !(canRemovePoweredBy(role) && b.hidePoweredBy === true),
  };
}

/** The branding of the account whose storage a user's sends use (the admin's for team members). */
export async function brandingForSender(userId: string | undefined): Promise<PublicBranding | null> {
  if (!userId) return null;
  const profile = await getProfile(userId);
  return profile ? publicBrandingOf(await storageOwnerOf(profile)) : null;
}

/** GET /branding/me */
export async function ownBranding(profile: UserProfile): Promise<OwnBranding> {
  const owner = await storageOwnerOf(profile);
  const pub = await publicBrandingOf(owner);
  return {
    ...pub,
    showLogoNav: owner.showLogoNav === true,
    editable: !profile.isTeamMember,
    canRemovePoweredBy: canRemovePoweredBy(resolveRole({ customerRole: owner.role })),
    companyName: owner.company ?? null,
  };
}

/** PATCH /branding/me: only the caller's own branding; members are refused. */
export async function changeBranding(
  profile: UserProfile,
  edit: BrandingUpdateInput,
  now = Date.now(),
): Promise<OwnBranding> {
  requireBrandingEditor(profile);
  const role = resolveRole({ customerRole: profile.role });
  if (edit.showPoweredBy === false && !canRemovePoweredBy(role)) {
    throw forbidden('plan_forbids_powered_by', "Removing 'Powered by SendBridge' needs a Business plan or above.");
  }
  const previous = await getBranding(profile.userId);
  const colour = (v: string | undefined) => (v === undefined ? undefined : v === '' ? null : normalizeHexColour(v));
  const backgroundKey =
    edit.backgroundKey === undefined
      ? undefined
      : edit.backgroundKey === ''
        ? null
        : await acceptBrandImage(profile.userId, 'background', edit.backgroundKey);
  const logoKey =
    edit.logoKey === undefined
      ? undefined
      : edit.logoKey === ''
        ? ''
        : await acceptBrandImage(profile.userId, 'logo', edit.logoKey);
  await updateBranding(
    profile.userId,
    {
      backgroundKey,
      backgroundColor: colour(edit.backgroundColor),
      accentColor: colour(edit.accentColor),
      hidePoweredBy: edit.showPoweredBy === undefined ? undefined : edit.showPoweredBy ? null : true,
    },
    now,
  );
  if (logoKey !== undefined || edit.showLogoNav !== undefined) {
    await updateProfile(profile.userId, {
      ...(logoKey !== undefined ? { logoPicKey: logoKey } : {}),
      ...(edit.showLogoNav !== undefined ? { showLogoNav: edit.showLogoNav } : {}),
    });
  }
  // Replaced or removed images are deleted (best effort): only this account ever pointed at them.
  await Promise.all([
    removeReplaced(profile.logoPicKey, logoKey === undefined ? undefined : logoKey || null),
    backgroundKey !== undefined ? removeReplaced(previous.backgroundKey, backgroundKey) : undefined,
  ]);
  return ownBranding((await getProfile(profile.userId)) ?? profile);
}

/** GET /branding?host=: a verified custom domain's owner's logo, colours and company name; one 404 for everything else. */
export async function hostBranding(host: string): Promise<HostBranding> {
  const ownerId = await liveDomainOwner(host);
  const profile = ownerId ? await getProfile(ownerId) : undefined;
  if (!profile) throw notFound('branding_not_found', 'No branding for this host.');
  const owner = await storageOwnerOf(profile);
  return { ...(await publicBrandingOf(owner)), companyName: owner.company ?? null };
}
