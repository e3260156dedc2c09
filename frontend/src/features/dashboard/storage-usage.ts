/** The storage bar's numbers (spec §4: warning from 90 %, full from 100 %), from @domain/storage. */
import { storageRatio, storageRemaining, storageState, type StorageState } from '@domain/storage';

export interface StorageUsage {
  readonly state: StorageState;
  /** whole percent used, rounded down so '90 %' never shows before the warning does; may pass 100 */
  readonly percent: number;
  /** width of the bar's fill, 0-100; a little usage stays visible */
  readonly fill: number;
  readonly used: number;
  readonly limit: number;
  readonly remaining: number;
}

export function storageUsage(used: number, limit: number): StorageUsage {
  const ratio = storageRatio(used, limit);
  const percent = Number.isFinite(ratio) ? Math.floor(ratio * 100) : 100;
  const fill = used > 0 ? Math.min(100, Math.max(1, Number.isFinite(ratio) ? ratio * 100 : 100)) : 0;
  return {
    state: storageState(used, limit),
    percent,
    fill,
    used: Math.max(0, used),
    limit,
    remaining: storageRemaining(used, limit),
  };
}
