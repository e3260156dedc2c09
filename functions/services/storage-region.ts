/**
 * Where a signed-in user's new files go (issue 13): the region they picked on
 * /dash/data-residency when this deployment serves it, else the deployment's default region.
 * Transfers and file-request uploads both ask here, so the two never disagree.
 */
import type { RegionId } from '../domain/regions';
import type { UserProfile } from '../data/users';
import { config } from '../lib/env';

export function uploadRegionFor(profile: Pick<UserProfile, 'region'> | undefined): RegionId {
  const region = profile?.region;
  if (region && config().regionBuckets[region]) return region;
  return config().defaultRegion;
}
