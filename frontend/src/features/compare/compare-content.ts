import { DAY_MS, SECOND_MS } from '../../../../functions/domain/units';
import { allowedExpiryPresets } from '../../../../functions/domain/expiry';
import {
  COMPARISON_FREE_EXPIRY_DAYS,
  COMPARISON_FREE_RECIPIENTS,
  COMPARISON_FREE_STORAGE_BYTES,
  COMPARISON_FREE_TRANSFER_BYTES,
  PLANS,
} from '../../../../functions/domain/plans';
import type { CompareRowId } from './competitors';

type OurKey =
  | 'compare.table.expiryValue'
  | 'compare.table.recipientsValue'
  | 'compare.table.encryptionValue'
  | 'compare.table.adsValue'
  | 'compare.table.regionsValue'
  | 'comparison.regionsFree';
export type OurValue = { readonly bytes: number } | { readonly key: OurKey; readonly days?: number; readonly count?: number };

const free = PLANS.free;
const freeExpiryDays = Math.max(...allowedExpiryPresets('free')) * SECOND_MS / DAY_MS;

/**
 * Rows of the comparison table with both readings of our own free plan (spec §1 and §9: the
 * figures we advertise disagree with the plan table; both are shown): `claim` is the comparison
 * table's claim, `planTable` the free plan's limits that the product enforces.
 */
export const COMPARISON_ROWS: readonly { readonly id: CompareRowId; readonly claim: OurValue; readonly planTable: OurValue }[] = [
  { id: 'freeStorage', claim: { bytes: COMPARISON_FREE_STORAGE_BYTES }, planTable: { bytes: free.storage } },
  { id: 'transferLimit', claim: { bytes: COMPARISON_FREE_TRANSFER_BYTES }, planTable: { bytes: free.uploadLimit } },
  {
    id: 'expiry',
    claim: { key: 'compare.table.expiryValue', days: COMPARISON_FREE_EXPIRY_DAYS },
    planTable: { key: 'compare.table.expiryValue', days: freeExpiryDays },
  },
  {
    id: 'recipients',
    claim: { key: 'compare.table.recipientsValue', count: COMPARISON_FREE_RECIPIENTS },
    planTable: { key: 'compare.table.recipientsValue', count: free.emailTo },
  },
  { id: 'encryption', claim: { key: 'compare.table.encryptionValue' }, planTable: { key: 'compare.table.encryptionValue' } },
  { id: 'ads', claim: { key: 'compare.table.adsValue' }, planTable: { key: 'compare.table.adsValue' } },
  // free accounts and guests store in Hong Kong; choosing a region starts with the personal plan
  { id: 'regions', claim: { key: 'compare.table.regionsValue' }, planTable: { key: 'comparison.regionsFree' } },
];
