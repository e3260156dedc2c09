/**
 * What a lazy chunk load does after a failure (lib/import-with-retry.ts loads this module on
 * the first failure, and at idle time after the first screen, so it is not part of any first
 * load). Measured in Chromium (docs/decisions/ "Lazy chunks: retry with a fresh URL, reload
 * once for a stale deploy"):
 * - A module whose fetch failed stays failed in the document's module map: `import()` of the
 *   same URL rejects again at once without a request. A retry therefore imports the failed
 *   chunk's URL with a `?retry=n` query (a new module-map entry, fetched again); the chunk's own
 *   imports resolve to the usual URLs, so shared modules already loaded are not loaded twice.
 * - After a deploy the old hashed chunks are gone (403 from the private bucket behind CloudFront,
 *   404 locally): no retry can fetch them. When a failed chunk's URL answers that way, the page
 *   reloads once into the new version, guarded by a time-stamped sessionStorage marker so it
 *   never loops.
 */

// Loaded with this module (at idle time, lib/import-with-retry.ts preloadRecovery): the API
// client's retry rules, which lib/api.ts imports after a failure.
import '@domain/retry-policy';

/** sessionStorage: when the page last reloaded itself for a stale chunk (epoch ms). */
export const STALE_RELOAD_KEY = 'sendbridge:stale-chunk-reload';
/** A second stale chunk within this long of the last reload shows the error screen instead. */
export const STALE_RELOAD_WINDOW_MS = 5 * 60_000;

export interface ChunkLoadEnv {
  /** `import()` of a URL computed at run time */
  importUrl(url: string): Promise<unknown>;
  /** whether the deployment no longer has this chunk */
  isGone(url: string): Promise<boolean>;
  reload(): void;
  storage(): Pick<Storage, 'getItem' | 'setItem'> | null;
  now(): number;
  /** the page's origin: only chunks of our own origin are imported again by URL */
  origin: string;
}

/** After a failed attempt: load this instead next time, or the page is reloading, or retry the loader as it is. */
export type RecoveryPlan = (() => Promise<unknown>) | 'reloading' | undefined;
export type Recovery = (error: unknown, nextAttempt: number) => Promise<RecoveryPlan>;

/** The script URL a failed dynamic import names (Chromium and Firefox put it in the message), of our origin, without its query. */
export function failedChunkUrl(error: unknown, origin: string): string | undefined {
  const url = /https?:\/\/[^\s'"?#]+\.m?js/u.exec(String((error as Error | undefined)?.message ?? error))?.[0];
  return url?.startsWith(`${origin}/`) ? url : undefined;
}

/** A chunk's URL answers as gone when it is refused (403 / 404 / 410). An offline HEAD is not gone. */
export async function chunkIsGone(url: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    return [403, 404, 410].includes((await fetchImpl(url, { method: 'HEAD', cache: 'no-store' })).status);
  } catch {
    return false;
  }
}

/** Reloads once per window; false when it already did recently, or cannot tell (no sessionStorage): no loop. */
export function reloadOnceForStaleChunk(env: Pick<ChunkLoadEnv, 'storage' | 'now' | 'reload'>): boolean {
  try {
    const store = env.storage();
    if (!store || env.now() - Number(store.getItem(STALE_RELOAD_KEY)) < STALE_RELOAD_WINDOW_MS) return false;
    store.setItem(STALE_RELOAD_KEY, String(env.now()));
  } catch {
    return false;
  }
  env.reload();
  return true;
}

const browserEnv = (): ChunkLoadEnv => ({
  importUrl: (url) => import(/* @vite-ignore */ url),
  isGone: (url) => chunkIsGone(url),
  reload: () => location.reload(),
  storage: () => sessionStorage,
  now: Date.now,
  origin: location.origin,
});

/** One chunk's recovery across its attempts (it remembers the chunk's URL once a failure named it). */
export function createRecovery(env: ChunkLoadEnv = browserEnv()): Recovery {
  let failedUrl: string | undefined;
  return async (error, nextAttempt) => {
    const url = failedChunkUrl(error, env.origin) ?? failedUrl;
    if (url && (await env.isGone(url)) && reloadOnceForStaleChunk(env)) return 'reloading';
    failedUrl = url;
    return url ? () => env.importUrl(`${url}?retry=${nextAttempt}`) : undefined;
  };
}
