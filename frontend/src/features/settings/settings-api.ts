/** The settings screens' calls (functions/domain/settings-api.ts, auth-api.ts updateProfile). */
import type { RegionsResponse, SetRegionResponse } from '@domain/settings-api';
import type { RegionId } from '@domain/regions';
import { apiFetch } from '@/lib/api';
import { authedFetch } from '@/lib/session/session';

/** GET /regions: public; fresh speed-test URLs each time (they live 5 minutes). */
export function fetchRegions(signal?: AbortSignal): Promise<RegionsResponse> {
  return apiFetch<RegionsResponse>('/regions', { ...(signal ? { signal } : {}) });
}

/** PATCH /settings/region with spec §7's { userid, region }. */
export function saveRegion(userid: string, region: RegionId): Promise<SetRegionResponse> {
  return authedFetch<SetRegionResponse>('/settings/region', { method: 'PATCH', body: { userid, region } });
}
