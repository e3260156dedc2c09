/**
 * Storage regions and data residency (spec §1 choice of storage region, §2 Region
 * picker and /dash/data-residency, §3 Region, §7 PATCH /settings/region and the speed test, §9
 * regions and signal bars). The contract between the API, the picker and the tests.
 *
 *   GET   /regions           (public) every region, whether it is offered and served here,
 *                            and a short-lived URL of its 128 KB speed-test object  -> 200 RegionsResponse
 *   PATCH /settings/region   (JWT) { userid, region }: the caller's default region    -> 200 SetRegionResponse
 *                            400 unknown_region | region_unavailable (details.reason not_offered | not_deployed),
 *                            403 not_your_account | region_choice_not_in_plan
 *
 * The transfer and request settings (spec §3 transferSettings, requestSettings) travel with the
 * profile: POST /v1/updateProfile (functions/domain/auth-api.ts) and GET /me.
 */
import * as z from 'zod/mini';
import type { RegionId } from './regions';

/** The body of PATCH /settings/region; the region id is checked by the service so each refusal has its own code. */
export const setRegionSchema = z.object({
  userid: z.string().check(z.minLength(1), z.maxLength(128)),
  region: z.string().check(z.minLength(1), z.maxLength(64)),
});
export type SetRegionInput = z.input<typeof setRegionSchema>;

export interface SetRegionResponse {
  /** where new transfers and request uploads of the caller now go */
  readonly region: RegionId;
}

/** How long a speed-test URL of GET /regions stays valid (the picker fetches fresh ones for a re-test). */
export const SPEED_TEST_URL_SECONDS = 300;

/** spec §3 Region (regionId, name, speed, bucket, endpoint): speed is measured by the browser; the bucket stays private. */
export interface RegionView {
  readonly regionId: RegionId;
  readonly name: string;
  /** one of the four regions offered for choice (spec §9); Hangzhou and Guangzhou are not */
  readonly offered: boolean;
  /** this deployment has the region's buckets */
  readonly available: boolean;
  /** presigned HEAD of the region's speed-test object; null when not offered or not available */
  readonly speedTestUrl: string | null;
}

export interface RegionsResponse {
  readonly regions: readonly RegionView[];
  /** the region of guests, free users and anyone who has not chosen */
  readonly defaultRegion: RegionId;
  /** epoch ms after which the speed-test URLs no longer work */
  readonly expiresAt: number;
}

/** Timed HEADs per region; the picker shows their median ("median of 3"). */
export const SPEED_TEST_SAMPLES = 3;

/** Median of the finite samples; NaN when there are none (signalBars then shows the fewest bars). */
export function medianMs(samples: readonly number[]): number {
  const ok = samples.filter((s) => Number.isFinite(s) && s >= 0).sort((a, b) => a - b);
  if (ok.length === 0) return Number.NaN;
  const mid = Math.floor(ok.length / 2);
  return ok.length % 2 === 1 ? ok[mid]! : (ok[mid - 1]! + ok[mid]!) / 2;
}
