import {
  COMPARISON_FREE_EXPIRY_DAYS,
  COMPARISON_FREE_RECIPIENTS,
  COMPARISON_FREE_STORAGE_BYTES,
  COMPARISON_FREE_TRANSFER_BYTES,
  PLANS,
} from '../../../../functions/domain/plans';
import type { CompareRowId } from './competitors';

type OurKey =
  | 'comparison.table.expiryValue'
  | 'comparison.table.recipientsValue'
  | 'comparison.table.encryptionValue'
  | 'comparison.table.adsValue'
  | 'comparison.table.regionsValue'
  | 'comparison.table.regionsFree';
export type OurValue =
  | { readonly bytes: number }
  | { readonly key: OurKey; readonly days?: number; readonly count?: number };

const free = PLANS.free;
/**
 * The free plan's only expiry, 1 Week (functions/domain/expiry.ts, allowedExpiryPresets('free')),
 * in days. Held here rather than imported so that expiry.ts stays in the home page's chunks
 * instead of becoming a file of its own on its first load; test/unit/frontend/compare.test.ts
 * checks the two agree.
 */
export const FREE_PLAN_EXPIRY_DAYS = 7;

/**
 * Rows of the comparison table with both readings of our own free plan (spec §1 and §9: the
 * figures we advertise disagree with the plan table; both are shown): `claim` is the comparison
 * table's claim, `planTable` the free plan's limits that the product enforces.
 */
export const COMPARISON_ROWS: readonly {
  readonly id: CompareRowId;
  readonly claim: OurValue;
  readonly planTable: OurValue;
}[] = [
  { id: 'freeStorage', claim: { bytes: COMPARISON_FREE_STORAGE_BYTES }, planTable: { bytes: free.storage } },
  { id: 'transferLimit', claim: { bytes: COMPARISON_FREE_TRANSFER_BYTES }, planTable: { bytes: free.uploadLimit } },
  {
    id: 'expiry',
    claim: { key: 'comparison.table.expiryValue', days: COMPARISON_FREE_EXPIRY_DAYS },
    planTable: { key: 'comparison.table.expiryValue', days: FREE_PLAN_EXPIRY_DAYS },
  },
  {
    id: 'recipients',
    claim: { key: 'comparison.table.recipientsValue', count: COMPARISON_FREE_RECIPIENTS },
    planTable: { key: 'comparison.table.recipientsValue', count: free.emailTo },
  },
  {
    id: 'encryption',
    claim: { key: 'comparison.table.encryptionValue' },
    planTable: { key: 'comparison.table.encryptionValue' },
  },
  { id: 'ads', claim: { key: 'comparison.table.adsValue' }, planTable: { key: 'comparison.table.adsValue' } },
  // free accounts and guests store in Hong Kong; choosing a region starts with the personal plan
  {
    id: 'regions',
    claim: { key: 'comparison.table.regionsValue' },
    planTable: { key: 'comparison.table.regionsFree' },
  },
];
