/** Transfer state of spec §4, derived from the stored record at a given moment. */
import { DAY_MS } from './units';

/** 2.2 days, as a whole number of ms (2.2 * DAY_MS carries a float error that moves the boundary). */
export const EXPIRING_SOON_MS = (22 * DAY_MS) / 10;

export interface TransferStateInput {
  /** Epoch ms. */
  expiryDate: number;
  total_downloads: number;
  /** Epoch ms. */
  now: number;
}

export interface TransferState {
  status: 'active' | 'expired';
  /** Active and never downloaded. */
  unseen: boolean;
  /** Active with less than 2.2 days left. */
  expiringSoon: boolean;
  /** Ms until expiry; negative once expired. */
  msLeft: number;
}

export function isTransferActive(expiryDate: number, now: number): boolean {
  return expiryDate > now;
}

export function transferState({ expiryDate, total_downloads, now }: TransferStateInput): TransferState {
  const msLeft = expiryDate - now;
  const active = msLeft > 0;
  return {
    status: active ? 'active' : 'expired',
    unseen: active && total_downloads === 0,
    expiringSoon: active && msLeft < EXPIRING_SOON_MS,
    msLeft,
  };
}
