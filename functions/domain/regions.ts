/** Storage regions of spec §9. Pure data shared by the API, the app, the local stack and CDK. */
import * as z from 'zod/mini';

export const STORAGE_REGIONS = [
  { regionId: 'hongkong', name: 'Hong Kong', offered: true },
  { regionId: 'siliconvalley', name: 'Silicon Valley', offered: true },
  { regionId: 'frankfurt', name: 'Frankfurt', offered: true },
  { regionId: 'dubai', name: 'Dubai', offered: true },
  { regionId: 'hangzhou', name: 'Hangzhou', offered: false },
  { regionId: 'guangzhou', name: 'Guangzhou', offered: false },
] as const;

export type RegionId = (typeof STORAGE_REGIONS)[number]['regionId'];

export const REGION_IDS: readonly RegionId[] = STORAGE_REGIONS.map((r) => r.regionId);

export const DEFAULT_REGION: RegionId = 'hongkong';

export function isRegionId(value: unknown): value is RegionId {
  return typeof value === 'string' && (REGION_IDS as readonly string[]).includes(value);
}

/** Regions a user may pick (spec §9 offers four; Hangzhou and Guangzhou exist but are not offered). */
export const OFFERED_REGION_IDS: readonly RegionId[] = STORAGE_REGIONS.filter((r) => r.offered).map((r) => r.regionId);

// Marked pure so bundles that only need the region list (config, jobs) leave zod out.
export const regionIdSchema = /* @__PURE__ */ z.custom<RegionId>(isRegionId, 'unknown_region');

/** The 128 KB object each region's transfers bucket holds for the browser's speed test. */
export const SPEED_TEST_KEY = 'speedtest/128kb.bin';
export const SPEED_TEST_BYTES = 128 * 1024;
