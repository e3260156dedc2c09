/** Storage usage state of spec §4: warning from 90 % up to (not including) 100 %, full from 100 %. */

export type StorageState = 'ok' | 'warning' | 'full';

export const STORAGE_WARNING_RATIO = 0.9;
export const STORAGE_FULL_RATIO = 1;

export function storageStateFromRatio(ratio: number): StorageState {
  if (ratio >= STORAGE_FULL_RATIO) return 'full';
  if (ratio >= STORAGE_WARNING_RATIO) return 'warning';
  return 'ok';
}

/** A zero allowance is full: nothing more can be stored. */
export function storageRatio(usedBytes: number, limitBytes: number): number {
  if (limitBytes <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, usedBytes) / limitBytes;
}

export function storageState(usedBytes: number, limitBytes: number): StorageState {
  return storageStateFromRatio(storageRatio(usedBytes, limitBytes));
}

/** Bytes still free, never negative. */
export function storageRemaining(usedBytes: number, limitBytes: number): number {
  return Math.max(0, limitBytes - Math.max(0, usedBytes));
}
