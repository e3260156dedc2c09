import { describe, expect, it } from 'vitest';
import { UPLOAD_SPEED_MAX_BPS } from '../../../functions/domain/upload';
import {
  UPLOAD_SPEED_STORAGE_KEY,
  rememberUploadSpeed,
  rememberedUploadSpeed,
} from '../../../frontend/src/shared/upload/upload-speed';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}

describe('the remembered upload speed', () => {
  it('gives back the last measured speed, in whole bytes per second', () => {
    const storage = memoryStorage();
    expect(rememberedUploadSpeed(storage)).toBeUndefined();
    rememberUploadSpeed(12_345_678.6, storage);
    expect(rememberedUploadSpeed(storage)).toBe(12_345_679);
    rememberUploadSpeed(2_000_000, storage);
    expect(rememberedUploadSpeed(storage)).toBe(2_000_000);
  });

  it('keeps nothing that is no speed, and reads junk as none', () => {
    const storage = memoryStorage();
    for (const v of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) rememberUploadSpeed(v, storage);
    expect(storage.items.size).toBe(0);
    for (const junk of ['fast', '-3', '1e30', '']) {
      storage.items.set(UPLOAD_SPEED_STORAGE_KEY, junk);
      expect(rememberedUploadSpeed(storage)).toBeUndefined();
    }
  });

  it('caps what it keeps at the most the API accepts', () => {
    const storage = memoryStorage();
    rememberUploadSpeed(UPLOAD_SPEED_MAX_BPS * 10, storage);
    expect(rememberedUploadSpeed(storage)).toBe(UPLOAD_SPEED_MAX_BPS);
  });

  it('is no hint at all where storage throws', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => rememberUploadSpeed(5_000_000, refusing)).not.toThrow();
    expect(rememberedUploadSpeed(refusing)).toBeUndefined();
  });
});
