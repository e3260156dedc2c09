import { describe, it, expect } from 'vitest';
import {
  CHUNK_LOAD_RETRIES,
  CHUNK_LOAD_RETRY_DELAY_MS,
  CHUNK_LOAD_TIMEOUT_MS,
  DEFAULT_SLICE_SIZE,
  DOWNLOAD_REQUEST_TIMEOUT_MS,
  IMAGE_PREVIEW_MAX_BYTES,
  IMAGE_URL_EXPIRES_SECONDS,
  MAX_UPLOAD_TRIES,
  MULTIPART_THRESHOLD_BYTES,
  PART_TARGET_COUNT,
  PART_TARGET_SECONDS,
  REQUEST_RETRIES,
  RETRY_SLICE_SIZES,
  RETRY_WARNING_TRIES,
  S3_MAX_OBJECT_BYTES,
  S3_MAX_PARTS,
  S3_MAX_PART_BYTES,
  S3_MIN_PART_BYTES,
  SIGNED_PUT_EXPIRES_SECONDS,
  SIZE_GROWN_PART_MAX_BYTES,
  SPEED_GROWN_PART_MAX_BYTES,
  SLICE_SIZE_BY_CONNECTION,
  STORAGE_TOKEN_REFRESH_MS,
  STORAGE_TOKEN_RETRIES,
  STORAGE_TOKEN_TIMEOUT_MS,
  backoffMs,
  canPreviewImage,
  checkpointMatches,
  isRetryWarningTry,
  parallelismForTry,
  partCountFor,
  partRange,
  partSizeFor,
  sliceSizeForConnection,
  usesMultipart,
} from '../../../functions/domain/upload';

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

describe('multipart threshold', () => {
  it('sends files of 50 MB or more as multipart and smaller ones as one PUT', () => {
    expect(MULTIPART_THRESHOLD_BYTES).toBe(50_000_000);
    expect(usesMultipart(50_000_000)).toBe(true);
    expect(usesMultipart(49_999_999)).toBe(false);
  });
});

describe('slice sizes', () => {
  it('follow the connection type of spec §9, defaulting to 2048 KB', () => {
    expect(SLICE_SIZE_BY_CONNECTION).toEqual({
      'slow-2g': 128 * KiB,
      '2g': 256 * KiB,
      '3g': 512 * KiB,
      '4g': 2048 * KiB,
    });
    expect(DEFAULT_SLICE_SIZE).toBe(2048 * KiB);
    expect(sliceSizeForConnection('3g')).toBe(512 * KiB);
    expect(sliceSizeForConnection(undefined)).toBe(2048 * KiB);
    expect(sliceSizeForConnection('5g')).toBe(2048 * KiB);
    expect(sliceSizeForConnection('toString')).toBe(2048 * KiB);
  });

  it('shrink to 1 MB then 512 KB on retry', () => {
    expect(RETRY_SLICE_SIZES).toEqual([MiB, 512 * KiB]);
  });
});

describe('S3 part size', () => {
  it('uses the S3 limits', () => {
    expect(S3_MIN_PART_BYTES).toBe(5 * MiB);
    expect(S3_MAX_PART_BYTES).toBe(5 * 1024 ** 3);
    expect(S3_MAX_PARTS).toBe(10_000);
    expect(S3_MAX_OBJECT_BYTES).toBe(5 * TiB);
  });

  it('is 5 MiB for files up to about 1,000 parts of 5 MiB when no speed is known', () => {
    expect(partSizeFor(0)).toBe(5 * MiB);
    expect(partSizeFor(50_000_000)).toBe(5 * MiB);
    expect(partSizeFor(GiB)).toBe(5 * MiB);
    expect(partSizeFor(PART_TARGET_COUNT * 5 * MiB)).toBe(5 * MiB);
  });

  it('grows with the file size: about 1,000 parts, whole MiB, up to 64 MiB', () => {
    expect(partSizeFor(PART_TARGET_COUNT * 5 * MiB + 1)).toBe(6 * MiB);
    expect(partSizeFor(10 * GiB)).toBe(11 * MiB);
    expect(partSizeFor(100e9)).toBe(SIZE_GROWN_PART_MAX_BYTES);
    expect(SIZE_GROWN_PART_MAX_BYTES).toBe(64 * MiB);
  });

  it('past 64 MiB only as far as 10,000 parts need', () => {
    expect(partSizeFor(1e12)).toBe(96 * MiB);
    expect(partSizeFor(2.5e12)).toBe(239 * MiB);
    expect(partCountFor(2.5e12)).toBeLessThanOrEqual(S3_MAX_PARTS);
  });

  it('grows with the measured speed: a part takes about 4 s at one slot’s share, up to 512 MiB', () => {
    const speed = 100 * MiB;
    // 25 MiB/s a slot x 4 s
    expect(partSizeFor(10 * GiB, { bytesPerSecond: speed })).toBe(100 * MiB);
    // two slots: each has half the speed, not a quarter
    expect(partSizeFor(10 * GiB, { bytesPerSecond: speed, parallelism: 2 })).toBe(200 * MiB);
    expect(partSizeFor(1000 * GiB, { bytesPerSecond: 10 * GiB })).toBe(SPEED_GROWN_PART_MAX_BYTES);
    expect(SPEED_GROWN_PART_MAX_BYTES).toBe(512 * MiB);
    expect(PART_TARGET_SECONDS).toBe(4);
  });

  it('keeps 5 MiB parts on a slow link, and the file-size growth when the speed says less', () => {
    expect(partSizeFor(GiB, { bytesPerSecond: MiB })).toBe(5 * MiB);
    expect(partSizeFor(100e9, { bytesPerSecond: MiB })).toBe(64 * MiB);
  });

  it('leaves every slot at least 4 parts when it grows a part', () => {
    // 1 GiB at 100 MiB/s would be 100 MiB parts; 4 slots x 4 parts cap it at 64 MiB
    expect(partSizeFor(GiB, { bytesPerSecond: 100 * MiB })).toBe(64 * MiB);
    expect(partCountFor(GiB, partSizeFor(GiB, { bytesPerSecond: 100 * MiB }))).toBe(16);
    expect(partSizeFor(200 * MiB, { bytesPerSecond: 10 * GiB })).toBe(12 * MiB);
    // never under S3's minimum for it
    expect(partSizeFor(60 * MiB, { bytesPerSecond: 10 * GiB })).toBe(5 * MiB);
  });

  it('ignores a speed that is no speed', () => {
    for (const bytesPerSecond of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(partSizeFor(10 * GiB, { bytesPerSecond })).toBe(partSizeFor(10 * GiB));
  });

  it('within S3’s limits and never smaller at a higher speed, for any size and speed', () => {
    for (let i = 0; i < 3000; i += 1) {
      const size = Math.floor(Math.random() * 5 * TiB);
      const speed = Math.random() * 2 * GiB;
      const slots = 2 + (i % 3);
      const part = partSizeFor(size, { bytesPerSecond: speed, parallelism: slots });
      expect(part % MiB, `${size} @ ${speed}`).toBe(0);
      expect(part).toBeGreaterThanOrEqual(S3_MIN_PART_BYTES);
      expect(part).toBeLessThanOrEqual(S3_MAX_PART_BYTES);
      expect(partCountFor(size, part)).toBeLessThanOrEqual(S3_MAX_PARTS);
      expect(partSizeFor(size, { bytesPerSecond: speed * 2, parallelism: slots })).toBeGreaterThanOrEqual(part);
    }
  });

  it('never needs more than 10,000 parts nor a part outside 5 MiB..5 GiB, from 5 MiB to 5 TiB', () => {
    const sizes = [
      5 * MiB,
      50e6,
      1e9,
      3e9,
      10_000 * 5 * MiB,
      10_000 * 5 * MiB + 1,
      100e9,
      1e12,
      2.5e12,
      3e12,
      5 * TiB - 1,
      5 * TiB,
    ];
    for (let i = 0; i < 2000; i += 1) sizes.push(Math.floor(5 * MiB + Math.random() * (5 * TiB - 5 * MiB)));
    for (const size of sizes) {
      const part = partSizeFor(size);
      expect(part % MiB, `${size}`).toBe(0);
      expect(part).toBeGreaterThanOrEqual(S3_MIN_PART_BYTES);
      expect(part).toBeLessThanOrEqual(S3_MAX_PART_BYTES);
      expect(partCountFor(size), `${size}`).toBeLessThanOrEqual(10_000);
      expect(partCountFor(size) * part).toBeGreaterThanOrEqual(size);
    }
  });

  it('refuses sizes S3 cannot store', () => {
    expect(() => partSizeFor(5 * TiB + 1)).toThrow(RangeError);
    expect(() => partSizeFor(-1)).toThrow(RangeError);
    expect(() => partSizeFor(1.5)).toThrow(RangeError);
  });

  it('cuts a file into contiguous ranges, the last one short', () => {
    const size = 12 * MiB + 7;
    expect(partCountFor(size)).toBe(3);
    expect(partRange(size, 1)).toEqual({ start: 0, end: 5 * MiB });
    expect(partRange(size, 2)).toEqual({ start: 5 * MiB, end: 10 * MiB });
    expect(partRange(size, 3)).toEqual({ start: 10 * MiB, end: size });
    expect(() => partRange(size, 4)).toThrow(RangeError);
    expect(() => partRange(size, 0)).toThrow(RangeError);
  });

  it('cuts a file by the part size its record was planned with', () => {
    const size = 100 * MiB + 1;
    expect(partRange(size, 2, 64 * MiB)).toEqual({ start: 64 * MiB, end: size });
    expect(() => partRange(size, 3, 64 * MiB)).toThrow(RangeError);
  });
});

describe('retries', () => {
  it('upload 4 parts at once, 3 from the 3rd try and 2 from the 5th', () => {
    expect([1, 2, 3, 4, 5, 6, 15].map(parallelismForTry)).toEqual([4, 4, 3, 3, 2, 2, 2]);
  });

  it('give up after 15 tries and warn at tries 2, 5 and 10', () => {
    expect(MAX_UPLOAD_TRIES).toBe(15);
    expect(RETRY_WARNING_TRIES).toEqual([2, 5, 10]);
    expect([1, 2, 3, 5, 9, 10, 15].filter(isRetryWarningTry)).toEqual([2, 5, 10]);
  });

  it('retry failed API calls up to 4 times with doubling backoff', () => {
    expect(REQUEST_RETRIES).toBe(4);
    expect([1, 2, 3, 4].map((a) => backoffMs(a))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(30)).toBe(60_000);
  });
});

describe('time limits', () => {
  it('sign PUTs for 3600 s and image URLs for 600 s', () => {
    expect(SIGNED_PUT_EXPIRES_SECONDS).toBe(3600);
    expect(IMAGE_URL_EXPIRES_SECONDS).toBe(600);
  });

  it('wait 40 s for a download request', () => {
    expect(DOWNLOAD_REQUEST_TIMEOUT_MS).toBe(40_000);
  });

  it('refresh storage tokens every 300000 ms with a 90 s timeout and 3 retries', () => {
    expect(STORAGE_TOKEN_REFRESH_MS).toBe(300_000);
    expect(STORAGE_TOKEN_TIMEOUT_MS).toBe(90_000);
    expect(STORAGE_TOKEN_RETRIES).toBe(3);
  });

  it('load code chunks within 120 s, retrying 5 times 3 s apart', () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(CHUNK_LOAD_RETRIES).toBe(5);
    expect(CHUNK_LOAD_RETRY_DELAY_MS).toBe(3000);
  });
});

describe('image preview and resume', () => {
  it('previews images up to 100 MB only', () => {
    expect(IMAGE_PREVIEW_MAX_BYTES).toBe(100_000_000);
    expect(canPreviewImage(100_000_000)).toBe(true);
    expect(canPreviewImage(100_000_001)).toBe(false);
  });

  it('resumes from a checkpoint only when name and size both match', () => {
    expect(checkpointMatches({ fileName: 'a.bin', size: 10 }, { fileName: 'a.bin', size: 10 })).toBe(true);
    expect(checkpointMatches({ fileName: 'a.bin', size: 10 }, { fileName: 'a.bin', size: 11 })).toBe(false);
    expect(checkpointMatches({ fileName: 'a.bin', size: 10 }, { fileName: 'b.bin', size: 10 })).toBe(false);
  });
});
