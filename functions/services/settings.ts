/**
 * Storage regions and settings of the signed-in user (functions/domain/settings-api.ts):
 * the public region list with speed-test URLs, choosing the default region, and the plan rules
 * of the transfer and request settings saved through POST /v1/updateProfile.
 */
import { limitsFor, resolveRole } from '../domain/plans';
import { isExpiryAllowed } from '../domain/expiry';
import { formatBytes } from '../domain/format';
import { SPEED_TEST_KEY, STORAGE_REGIONS, isRegionId, type RegionId } from '../domain/regions';
import {
  SPEED_TEST_URL_SECONDS,
  type RegionsResponse,
  type RegionView,
  type SetRegionResponse,
} from '../domain/settings-api';
import { DEFAULT_TRANSFER_SETTINGS, type TransferSettings, type UpdateProfileInput } from '../domain/auth-api';
import type { RequestSettings } from '../domain/requests-api';
import { setStorageRegion, type UserProfile } from '../data/users';
import { presignHead } from '../adapters/storage';
import { config } from '../lib/env';
import { HttpError, badRequest, forbidden, problemsError } from '../lib/errors';
import { problemText } from '../domain/validation';
import { storageOwnerOf } from './limits';
import { uploadRegionFor } from './storage-region';

/** The words of the refusals (docs/error-codes.md). */
export const SETTINGS_TEXTS = {
  notYourAccount: 'You can only change your own storage region.',
  regionNotOffered: 'This storage region is not offered for choice.',
  regionUnavailable: 'This storage region is not available in this deployment.',
  regionChoiceNotInPlan: 'Your plan stores files in Hong Kong. Upgrade your plan to choose a storage region.',
} as const;

/** A presigned HEAD of the region's speed-test object in its transfers bucket (the buckets block public access). */
async function speedTestUrl(regionId: RegionId): Promise<string> {
  return presignHead({ regionId, anon: false, key: SPEED_TEST_KEY }, SPEED_TEST_URL_SECONDS);
}

/** GET /regions */
export async function listRegions(now = Date.now()): Promise<RegionsResponse> {
  const served = config().regionBuckets;
  const regions: RegionView[] = await Promise.all(
    STORAGE_REGIONS.map(async (r) => {
      const available = served[r.regionId] !== undefined;
      return {
        regionId: r.regionId,
        name: r.name,
        offered: r.offered,
        available,
        speedTestUrl: r.offered && available ? await speedTestUrl(r.regionId) : null,
      };
    }),
  );
  return { regions, defaultRegion: config().defaultRegion, expiresAt: now + SPEED_TEST_URL_SECONDS * 1000 };
}

/** The plan that decides a user's settings: the team admin's for members, as for every other limit. */
export async function planRoleOf(profile: UserProfile): Promise<string> {
  return resolveRole({ customerRole: (await storageOwnerOf(profile)).role });
}

/** PATCH /settings/region */
export async function chooseRegion(profile: UserProfile, userid: string, region: string): Promise<SetRegionResponse> {
  // The body names the account (spec §7 {userid, region}); only the JWT's own is accepted.
  if (userid !== profile.userId) throw forbidden('not_your_account', SETTINGS_TEXTS.notYourAccount);
  // unknown_region is the validation problem of a region outside the list (a 400 with the problem's code on top)
  if (!isRegionId(region))
    throw problemsError([{ code: 'unknown_region', field: 'region', message: problemText('unknown_region') }]);
  const known = STORAGE_REGIONS.find((r) => r.regionId === region)!;
  // One code for a listed region that cannot be chosen here; details.reason says why.
  if (!known.offered)
    throw badRequest('region_unavailable', SETTINGS_TEXTS.regionNotOffered, { reason: 'not_offered' });
  if (!config().regionBuckets[region])
    throw badRequest('region_unavailable', SETTINGS_TEXTS.regionUnavailable, { reason: 'not_deployed' });
  const role = await planRoleOf(profile);
  if (!limitsFor(role).regionChoice) {
    throw new HttpError(403, 'region_choice_not_in_plan', SETTINGS_TEXTS.regionChoiceNotInPlan, { role });
  }
  await setStorageRegion(profile.userId, region);
  return { region: uploadRegionFor({ region, role: profile.role }, role) };
}

/** Saved transfer settings with the defaults filled (GET /me). */
export function transferSettingsOf(profile: Pick<UserProfile, 'transferSettings'>): TransferSettings {
  return { ...DEFAULT_TRANSFER_SETTINGS, ...profile.transferSettings };
}

/**
 * The settings part of POST /v1/updateProfile, checked against the plan: the default expiry
 * must be one the plan may pick (spec §6: free only 1 Week), a request's default size and file
 * count within the plan's per-transfer limits. Returns the fields to store: the transfer
 * settings merged with the saved ones (only the fields sent change), the request settings whole.
 */
export async function checkedSettings(
  profile: UserProfile,
  edit: Pick<UpdateProfileInput, 'transferSettings' | 'requestSettings'>,
): Promise<{ transferSettings?: Partial<TransferSettings>; requestSettings?: RequestSettings }> {
  if (!edit.transferSettings && !edit.requestSettings) return {};
  const role = await planRoleOf(profile);
  const limits = limitsFor(role);
  const out: { transferSettings?: Partial<TransferSettings>; requestSettings?: RequestSettings } = {};
  if (edit.transferSettings) {
    const expiry = edit.transferSettings.defaultExpirySeconds;
    // The same refusal as a TransferModal expiry change the plan does not allow (400 expiry_not_allowed).
    if (expiry !== undefined && !isExpiryAllowed(role, expiry)) {
      throw problemsError([
        {
          code: 'expiry_not_allowed',
          field: 'transferSettings.defaultExpirySeconds',
          message: problemText('expiry_not_allowed'),
        },
      ]);
    }
    out.transferSettings = { ...profile.transferSettings, ...edit.transferSettings };
  }
  if (edit.requestSettings) {
    const rules = edit.requestSettings.defaultRules;
    if (rules?.maxBytes !== undefined && rules.maxBytes > limits.uploadLimit) {
      // The codes (and app texts) of adding files beyond the plan: a request's upload is a transfer of the requester's plan.
      throw badRequest('transfer_too_large', `Your plan takes at most ${formatBytes(limits.uploadLimit)} per upload.`, {
        limit: limits.uploadLimit,
      });
    }
    if (rules?.maxFiles !== undefined && rules.maxFiles > limits.files) {
      throw badRequest('too_many_files', `Your plan takes at most ${limits.files} files per upload.`, {
        limit: limits.files,
      });
    }
    out.requestSettings = edit.requestSettings;
  }
  return out;
}
