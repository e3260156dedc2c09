import { describe, it, expect } from 'vitest';
import { EXPIRING_SOON_MS, isTransferActive, transferState } from '../../../functions/domain/transfer-state';

const NOW = Date.UTC(2025, 2, 1);
const DAY = 86_400_000;

describe('transfer state', () => {
  it('is active while the expiry is in the future and expired from the expiry on', () => {
    expect(transferState({ expiryDate: NOW + 1, total_downloads: 0, now: NOW }).status).toBe('active');
    expect(transferState({ expiryDate: NOW, total_downloads: 0, now: NOW }).status).toBe('expired');
    expect(isTransferActive(NOW + 1, NOW)).toBe(true);
    expect(isTransferActive(NOW, NOW)).toBe(false);
  });

  it('is unseen when active and never downloaded', () => {
    expect(transferState({ expiryDate: NOW + 5 * DAY, total_downloads: 0, now: NOW }).unseen).toBe(true);
    expect(transferState({ expiryDate: NOW + 5 * DAY, total_downloads: 1, now: NOW }).unseen).toBe(false);
    expect(transferState({ expiryDate: NOW - 1, total_downloads: 0, now: NOW }).unseen).toBe(false);
  });

  it('is expiring soon with less than 2.2 days left, and not at exactly 2.2 days', () => {
    expect(EXPIRING_SOON_MS).toBe(190_080_000);
    expect(transferState({ expiryDate: NOW + 190_080_000, total_downloads: 0, now: NOW }).expiringSoon).toBe(false);
    expect(transferState({ expiryDate: NOW + 190_080_000 - 1, total_downloads: 0, now: NOW }).expiringSoon).toBe(true);
    expect(transferState({ expiryDate: NOW - DAY, total_downloads: 0, now: NOW }).expiringSoon).toBe(false);
  });

  it('reports the time left, negative once expired', () => {
    expect(transferState({ expiryDate: NOW - 10, total_downloads: 3, now: NOW }).msLeft).toBe(-10);
  });
});
