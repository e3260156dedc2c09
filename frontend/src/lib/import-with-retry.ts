/**
 * Spec §9: a lazy chunk load retries 5 times, 3 s apart, each attempt bounded by 120 s, so a
 * flaky connection does not leave a blank screen at once; when every try failed the route's
 * error screen (components/route-error.tsx) offers a reload. What a retry loads, and the one
 * reload after a deploy, are decided by lib/chunk-recovery.ts, loaded on the first failure (or
 * earlier, at idle time: `preloadRecovery`) so that no first load carries it. Should that
 * module itself not load, the loader is simply called again.
 */
import type { Recovery } from '@/lib/chunk-recovery';

export const CHUNK_RETRIES = 5;
export const CHUNK_RETRY_DELAY_MS = 3_000;
export const CHUNK_TIMEOUT_MS = 120_000;

export interface ImportRetryOptions {
  readonly retries?: number;
  readonly delayMs?: number;
  readonly timeoutMs?: number;
  /** what a failure changes (default: lib/chunk-recovery.ts's, per call) */
  readonly recovery?: () => Promise<Recovery>;
}

const defaultRecovery = () => import('@/lib/chunk-recovery').then((m) => m.createRecovery());

/**
 * Loads the failure paths while the page is idle, after its first screen: chunk recovery and,
 * with it, the API client's retry rules (lib/api.ts), so a later failure does not depend on fetching them.
 */
export function preloadRecovery(): void {
  setTimeout(() => void defaultRecovery().catch(() => undefined), 2_000);
}

export async function importWithRetry<T>(load: () => Promise<T>, options: ImportRetryOptions = {}): Promise<T> {
  const { retries = CHUNK_RETRIES, delayMs = CHUNK_RETRY_DELAY_MS, timeoutMs = CHUNK_TIMEOUT_MS } = options;
  let recovery: Promise<Recovery | undefined> | undefined;
  let next: () => Promise<unknown> = load;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return (await withTimeout(next(), timeoutMs)) as T;
    } catch (error) {
      recovery ??= (options.recovery ?? defaultRecovery)().catch(() => undefined);
      const plan = await (await recovery)?.(error, attempt + 1);
      // The page is reloading into the new version: keep the route waiting until it goes.
      if (plan === 'reloading') return new Promise<T>(() => undefined);
      if (attempt >= retries) throw error;
      next = plan ?? load;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Chunk load timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
