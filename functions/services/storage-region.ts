/**
 * Where a signed-in user's new files go: the region they picked on
 * /dash/data-residency when their plan includes the choice (plans.ts `regionChoice`) and this
 * deployment serves it, else the deployment's default region (hongkong). Transfers and
 * file-request uploads both ask here, so the two never disagree. Guests always get the default.
 */
import { OFFERED_REGION_IDS, type RegionId } from '../domain/regions';
import { limitsFor, resolveRole } from '../domain/plans';
import type { UserProfile } from '../data/users';
import { config } from '../lib/env';

/**
 * `role` is the plan that decides (the team admin's for members, as for every other limit);
 * without it the profile's own role is used.
 */
export function uploadRegionFor(
  profile: Pick<UserProfile, 'region' | 'role'> | undefined,
  role: string = resolveRole({ customerRole: profile?.role }),
): RegionId {
  const region = profile?.region;
  if (region && limitsFor(role).regionChoice && OFFERED_REGION_IDS.includes(region) && config().regionBuckets[region])
    return region;
  return config().defaultRegion;
}
