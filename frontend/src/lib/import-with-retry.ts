/**
 * Spec §9: a lazy chunk load retries 5 times, 3 s apart, each attempt bounded by 120 s, so a
 * flaky connection does not leave a blank screen at once; when every try failed the route's
 * error screen (components/route-error.tsx) offers a reload.
 *
 * Two browser facts shape it (measured in Chromium, docs/decisions.md "Lazy chunks: retry with
 * a fresh URL, reload once for a stale deploy"):
 * - A module whose fetch failed stays failed in the document's module map: `import()` of the
 *   same URL rejects again at once without a request. A retry therefore imports the failed
 *   chunk's URL with a `?retry=n` query (a new module-map entry, fetched again); the chunk's own
 *   imports resolve to the usual URLs, so shared modules already loaded are not loaded twice.
 * - After a deploy the old hashed chunks are gone (403 / 404, or the SPA's index.html): no retry
 *   can fetch them. When a failed chunk's URL answers that way, the page reloads once into the
 *   new version, guarded by a time-stamped sessionStorage marker so it never loops.
 */

export const CHUNK_RETRIES = 5;
export const CHUNK_RETRY_DELAY_MS = 3_000;
export const CHUNK_TIMEOUT_MS = 120_000;
/** sessionStorage: when the page last reloaded itself for a stale chunk (epoch ms). */
export const STALE_RELOAD_KEY = 'sendbridge:stale-chunk-reload';
/** A second stale chunk within this long of the last reload shows the error screen instead. */
export const STALE_RELOAD_WINDOW_MS = 5 * 60_000;

export interface ChunkLoadEnv {
  /** `import()` of a URL computed at run time */
  importUrl(url: string): Promise<unknown>;
  /** whether the deployment no longer has this chunk (undefined: could not tell) */
  isGone(url: string): Promise<boolean>;
  reload(): void;
  storage(): Pick<Storage, 'getItem' | 'setItem'> | null;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** the page's origin: only chunks of our own origin are imported again by URL */
  origin: string;
}

export interface ImportRetryOptions {
  readonly retries?: number;
  readonly delayMs?: number;
  readonly timeoutMs?: number;
  readonly env?: ChunkLoadEnv;
}

/** The script URL a failed dynamic import names (Chromium and Firefox put it in the message), without its query. */
export function failedChunkUrl(error: unknown, origin: string): string | undefined {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const match = /(https?:\/\/[^\s'"?#]+\.m?js)(?:[?#][^\s'"]*)?/u.exec(message);
  if (!match?.[1]) return undefined;
  try {
    const url = new URL(match[1]);
    return url.origin === origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A chunk's URL answers as gone when it is refused or comes back as a page instead of a script. */
export async function chunkIsGone(url: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await fetchImpl(url, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' });
    if (res.status === 403 || res.status === 404 || res.status === 410) return true;
    return res.ok && (res.headers.get('content-type') ?? '').includes('text/html');
  } catch {
    return false; // offline: a retry may still work
  }
}

/** Reloads once per window; false when it already did recently (the caller shows the error screen). */
export function reloadOnceForStaleChunk(env: Pick<ChunkLoadEnv, 'storage' | 'now' | 'reload'>): boolean {
  const store = env.storage();
  const last = Number(store?.getItem(STALE_RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && last > 0 && env.now() - last < STALE_RELOAD_WINDOW_MS) return false;
  // Without sessionStorage there is no loop guard: never reload then.
  if (!store) return false;
  try {
    store.setItem(STALE_RELOAD_KEY, String(env.now()));
  } catch {
    return false;
  }
  env.reload();
  return true;
}

function browserEnv(): ChunkLoadEnv {
  return {
    importUrl: (url) => import(/* @vite-ignore */ url),
    isGone: (url) => chunkIsGone(url),
    reload: () => window.location.reload(),
    storage: () => {
      try {
        return window.sessionStorage;
      } catch {
        return null;
      }
    },
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    origin: window.location.origin,
  };
}

export async function importWithRetry<T>(load: () => Promise<T>, options: ImportRetryOptions = {}): Promise<T> {
  const { retries = CHUNK_RETRIES, delayMs = CHUNK_RETRY_DELAY_MS, timeoutMs = CHUNK_TIMEOUT_MS } = options;
  const env = options.env ?? browserEnv();
  let failedUrl: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const next = failedUrl ? (env.importUrl(`${failedUrl}?retry=${attempt}`) as Promise<T>) : load();
      return await withTimeout(next, timeoutMs);
    } catch (error) {
      const url = failedChunkUrl(error, env.origin) ?? failedUrl;
      if (url && (await env.isGone(url)) && reloadOnceForStaleChunk(env)) {
        // The page is reloading into the new version: keep the route waiting until it goes.
        return new Promise<T>(() => undefined);
      }
      if (attempt >= retries) throw error;
      failedUrl = url;
      await env.sleep(delayMs);
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Chunk load timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
