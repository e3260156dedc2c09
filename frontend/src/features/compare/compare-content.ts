import {
  COMPARISON_FREE_EXPIRY_DAYS,
  COMPARISON_FREE_RECIPIENTS,
  COMPARISON_FREE_STORAGE_BYTES,
  COMPARISON_FREE_TRANSFER_BYTES,
} from '../../../../functions/domain/plans';

/** Rows of the comparison table: the spec's comparison claims (§1) plus our standing promises. */
export const COMPARISON_ROWS = [
  { id: 'freeStorage', value: { bytes: COMPARISON_FREE_STORAGE_BYTES } },
  { id: 'transferLimit', value: { bytes: COMPARISON_FREE_TRANSFER_BYTES } },
  { id: 'expiry', value: { key: 'compare.table.expiryValue', days: COMPARISON_FREE_EXPIRY_DAYS } },
  { id: 'recipients', value: { key: 'compare.table.recipientsValue', count: COMPARISON_FREE_RECIPIENTS } },
  { id: 'encryption', value: { key: 'compare.table.encryptionValue' } },
  { id: 'ads', value: { key: 'compare.table.adsValue' } },
  { id: 'regions', value: { key: 'compare.table.regionsValue' } },
] as const;

export const COMPETITOR_NAMES = { wetransfer: 'WeTransfer', china: 'WeTransfer' } as const;
