/**
 * Where a transfer's objects are: its region's bucket (the anon one for guests). A module of its
 * own so that readers (downloads, the sweep) need not import the sending service and all it
 * brings (file requests, contacts, limits) into their Lambda bundles.
 */
import type * as storage from '../adapters/storage';
import type { TransferRecord } from '../data/transfers';

export function locOf(t: Pick<TransferRecord, 'region' | 'anon'>) {
  return { regionId: t.region, anon: t.anon };
}

export function refOf(t: Pick<TransferRecord, 'region' | 'anon'>, key: string): storage.ObjectRef {
  return { regionId: t.region, anon: t.anon, key };
}
