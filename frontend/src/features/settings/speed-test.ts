/**
 * The Region picker's speed test (spec §7 "HEAD on each region's 128 KB test file";
 * median of 3 timed HEADs): each sample is one uncached HEAD through the region's presigned
 * URL, timed from request to answer. A failed request counts as no sample; a region with no
 * successful sample has no speed (NaN), which shows the fewest bars.
 */
import { SPEED_TEST_SAMPLES, medianMs } from '@domain/settings-api';

export interface SpeedTestDeps {
  fetch(url: string, init: RequestInit): Promise<Pick<Response, 'ok'>>;
  now(): number;
}

const browserDeps: SpeedTestDeps = {
  fetch: (url, init) => fetch(url, init),
  now: () => performance.now(),
};

/** Per-sample ceiling: a region that does not answer in time is as slow as it gets. */
export const SAMPLE_TIMEOUT_MS = 5000;

/** Median ms of `samples` sequential HEADs on one region's speed-test URL. */
export async function measureRegion(
  url: string,
  deps: SpeedTestDeps = browserDeps,
  samples = SPEED_TEST_SAMPLES,
  signal?: AbortSignal,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    if (signal?.aborted) break;
    const started = deps.now();
    try {
      const timeout = AbortSignal.timeout(SAMPLE_TIMEOUT_MS);
      const res = await deps.fetch(url, {
        method: 'HEAD',
        cache: 'no-store',
        mode: 'cors',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (res.ok) times.push(deps.now() - started);
    } catch {
      // offline, blocked or timed out: no sample
    }
  }
  return medianMs(times);
}

/**
 * Every region in parallel (each region's own three HEADs in sequence, so one region's samples
 * never queue behind each other's), reporting each median as it arrives.
 */
export async function measureAll(
  targets: readonly { readonly regionId: string; readonly url: string }[],
  onResult: (regionId: string, ms: number) => void,
  deps: SpeedTestDeps = browserDeps,
  signal?: AbortSignal,
): Promise<void> {
  await Promise.all(
    targets.map(async (t) => {
      const ms = await measureRegion(t.url, deps, SPEED_TEST_SAMPLES, signal);
      if (!signal?.aborted) onResult(t.regionId, ms);
    }),
  );
}
