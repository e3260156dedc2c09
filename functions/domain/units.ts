/**
 * Byte units. Sizes a user reads or is limited by (plan limits, thresholds, preview cap) are
 * decimal, as storage vendors and the marketing pages use them: 1 GB = 1e9 bytes. Sizes that
 * AWS defines (S3 part and object limits) or that are buffer sizes (upload slices, the speed
 * test file) are binary and named KiB/MiB/GiB/TiB.
 */

export const KB = 1e3;
export const MB = 1e6;
export const GB = 1e9;
export const TB = 1e12;

export const KiB = 1024;
export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;
export const TiB = 1024 ** 4;

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
