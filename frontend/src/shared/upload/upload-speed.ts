/**
 * The sender's last measured upload speed, kept in this browser so the next create can ask for
 * parts sized to it (functions/domain/upload.ts partSizeFor): a fast link gets larger parts,
 * fewer requests; a slow one keeps 5 MiB parts. Storage that is off or full just means no hint.
 */
import { UPLOAD_SPEED_MAX_BPS } from '@domain/upload';

export const UPLOAD_SPEED_STORAGE_KEY = 'sendbridge.upload-speed';

type SpeedStorage = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): SpeedStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // access itself throws where storage is disabled
    return null;
  }
}

/** Bytes per second, when a plausible speed was measured before. */
export function rememberedUploadSpeed(storage: SpeedStorage | null = defaultStorage()): number | undefined {
  try {
    const value = Number(storage?.getItem(UPLOAD_SPEED_STORAGE_KEY));
    return Number.isFinite(value) && value > 0 && value <= UPLOAD_SPEED_MAX_BPS ? value : undefined;
  } catch {
    return undefined;
  }
}

export function rememberUploadSpeed(bytesPerSecond: number, storage: SpeedStorage | null = defaultStorage()): void {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return;
  try {
    storage?.setItem(UPLOAD_SPEED_STORAGE_KEY, String(Math.round(Math.min(bytesPerSecond, UPLOAD_SPEED_MAX_BPS))));
  } catch {
    // full or refused: the next create simply carries no hint
  }
}
