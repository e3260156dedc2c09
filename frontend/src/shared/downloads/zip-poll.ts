/**
 * "Download all": the server builds one ZIP in the background and answers 'building' until it
 * is in S3 (architecture §3.5). The page asks again every couple of seconds, up to a cap.
 */
import type { ZipResponse } from '@domain/transfer-api';
import { MINUTE_MS, SECOND_MS } from '@domain/units';

export const ZIP_POLL_INTERVAL_MS = 2 * SECOND_MS;
/** Long enough for a multi-GB transfer copied S3 to S3; past it the visitor is asked to retry. */
export const ZIP_POLL_MAX_MS = 15 * MINUTE_MS;

export class ZipTimeoutError extends Error {
  constructor() {
    super('The ZIP was not ready in time');
    this.name = 'ZipTimeoutError';
  }
}

export interface ZipPollOptions {
  readonly signal?: AbortSignal;
  readonly intervalMs?: number;
  readonly maxMs?: number;
  /** injectable clock and wait, so the cap is testable without waiting it out */
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('Aborted', 'AbortError');
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls `request` until the ZIP is ready and returns its URL and size. Rejects with
 * ZipTimeoutError past the cap, with the request's error if one fails, and with the abort
 * reason when `signal` aborts.
 */
export async function pollZip(
  request: (signal?: AbortSignal) => Promise<ZipResponse>,
  options: ZipPollOptions = {},
): Promise<{ url: string; size: number }> {
  const {
    signal,
    intervalMs = ZIP_POLL_INTERVAL_MS,
    maxMs = ZIP_POLL_MAX_MS,
    now = Date.now,
    sleep: wait = sleep,
  } = options;
  const deadline = now() + maxMs;
  for (;;) {
    if (signal?.aborted) throw abortError(signal);
    const answer = await request(signal);
    if (answer.status === 'ready') return { url: answer.url, size: answer.size };
    if (now() + intervalMs > deadline) throw new ZipTimeoutError();
    await wait(intervalMs, signal);
  }
}
