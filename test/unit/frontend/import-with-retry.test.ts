import { describe, expect, it } from 'vitest';
import {
  STALE_RELOAD_KEY,
  chunkIsGone,
  createRecovery,
  failedChunkUrl,
  reloadOnceForStaleChunk,
  type ChunkLoadEnv,
} from '@/lib/chunk-recovery';
import { CHUNK_RETRIES, CHUNK_RETRY_DELAY_MS, CHUNK_TIMEOUT_MS, importWithRetry } from '@/lib/import-with-retry';
import { IDEMPOTENCY_KEY_HEADER as CLIENT_HEADER, newIdempotencyKey } from '@/lib/api';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, API_RETRIES } from '@domain/retry-policy';
import { CHUNK_LOAD_RETRIES, CHUNK_LOAD_TIMEOUT_MS } from '@domain/upload';

const ORIGIN = 'https://app.example.com';
const CHUNK = `${ORIGIN}/assets/about-page-DmqsMy8B.js`;
const chromiumError = (url = CHUNK) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

function fakeEnv(overrides: Partial<ChunkLoadEnv> = {}) {
  const calls = { imports: [] as string[], reloads: 0, heads: [] as string[] };
  const store = new Map<string, string>();
  const env: ChunkLoadEnv = {
    importUrl: async (url) => {
      calls.imports.push(url);
      throw chromiumError(url);
    },
    isGone: async (url) => {
      calls.heads.push(url);
      return false;
    },
    reload: () => {
      calls.reloads += 1;
    },
    storage: () => ({ getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) }),
    now: () => 1_000_000,
    origin: ORIGIN,
    ...overrides,
  };
  return { env, calls, store };
}

const fast = (env: ChunkLoadEnv) => ({ delayMs: 0, recovery: async () => createRecovery(env) });

describe('importWithRetry (spec §9)', () => {
  it('5 retries, 3 s apart, 120 s each', () => {
    expect([CHUNK_RETRIES, CHUNK_RETRY_DELAY_MS, CHUNK_TIMEOUT_MS]).toEqual([5, 3_000, 120_000]);
    expect([CHUNK_RETRIES, CHUNK_TIMEOUT_MS]).toEqual([CHUNK_LOAD_RETRIES, CHUNK_LOAD_TIMEOUT_MS]);
  });

  it('retries a failed chunk by its URL with a fresh query, then answers the module', async () => {
    const { env, calls } = fakeEnv({
      importUrl: async (url) => {
        calls.imports.push(url);
        if (calls.imports.length < 2) throw chromiumError(`${url}`);
        return { value: 42 };
      },
    });
    let loads = 0;
    const mod = await importWithRetry(async () => {
      loads += 1;
      throw chromiumError();
    }, fast(env));
    expect(mod).toEqual({ value: 42 });
    expect(loads).toBe(1);
    expect(calls.imports).toEqual([`${CHUNK}?retry=1`, `${CHUNK}?retry=2`]);
    expect(calls.heads).toEqual([CHUNK, CHUNK]);
  });

  it('gives up after 5 retries with the last error (the route shows its reload screen)', async () => {
    const { env, calls } = fakeEnv();
    await expect(importWithRetry(() => Promise.reject(chromiumError()), fast(env))).rejects.toThrow(
      /Failed to fetch dynamically imported module/u,
    );
    expect(calls.imports).toHaveLength(5);
    expect(calls.reloads).toBe(0);
  });

  it('waits between tries', async () => {
    const { env } = fakeEnv();
    const started = Date.now();
    await expect(
      importWithRetry(() => Promise.reject(chromiumError()), {
        retries: 2,
        delayMs: 50,
        recovery: async () => createRecovery(env),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('an error naming no chunk (Safari, a timeout) retries the loader itself', async () => {
    const { env, calls } = fakeEnv();
    let loads = 0;
    const mod = await importWithRetry(async () => {
      loads += 1;
      if (loads < 3) throw new TypeError('Importing a module script failed.');
      return 'ok';
    }, fast(env));
    expect(mod).toBe('ok');
    expect(calls.imports).toEqual([]);
  });

  it('retries the loader when the recovery module itself cannot load', async () => {
    let loads = 0;
    const mod = await importWithRetry(
      async () => {
        loads += 1;
        if (loads < 2) throw chromiumError();
        return 'ok';
      },
      { delayMs: 0, recovery: () => Promise.reject(new TypeError('offline')) },
    );
    expect(mod).toBe('ok');
  });

  it('a chunk the deployment no longer has reloads the page once, never twice within the window', async () => {
    const first = fakeEnv({ isGone: async () => true });
    void importWithRetry(() => Promise.reject(chromiumError()), fast(first.env)); // stays pending while the page reloads
    await new Promise((r) => setTimeout(r, 10));
    expect(first.calls.reloads).toBe(1);
    expect(first.store.get(STALE_RELOAD_KEY)).toBe('1000000');

    // after the reload, the chunk is still gone: no second reload, retries then the error screen
    const second = fakeEnv({ isGone: async () => true });
    second.store.set(STALE_RELOAD_KEY, String(1_000_000 - 60_000));
    await expect(importWithRetry(() => Promise.reject(chromiumError()), fast(second.env))).rejects.toThrow();
    expect(second.calls.reloads).toBe(0);
  });
});

describe('chunk recovery', () => {
  it('reloads again once the marker is older than the window; never without sessionStorage', () => {
    const { env, calls, store } = fakeEnv();
    store.set(STALE_RELOAD_KEY, String(1_000_000 - 6 * 60_000));
    expect(reloadOnceForStaleChunk(env)).toBe(true);
    expect(calls.reloads).toBe(1);
    expect(reloadOnceForStaleChunk(env)).toBe(false);
    expect(reloadOnceForStaleChunk({ ...env, storage: () => null })).toBe(false);
    expect(
      reloadOnceForStaleChunk({
        ...env,
        storage: () => {
          throw new DOMException('denied', 'SecurityError');
        },
      }),
    ).toBe(false);
    expect(calls.reloads).toBe(1);
  });

  it('imports again only chunks of its own origin, named by the browser’s message', () => {
    expect(failedChunkUrl(chromiumError(), ORIGIN)).toBe(CHUNK);
    expect(failedChunkUrl(chromiumError(`${CHUNK}?retry=3`), ORIGIN)).toBe(CHUNK);
    expect(failedChunkUrl(new TypeError(`error loading dynamically imported module: ${CHUNK}`), ORIGIN)).toBe(CHUNK);
    expect(failedChunkUrl(chromiumError('https://evil.example/x.js'), ORIGIN)).toBeUndefined();
    expect(failedChunkUrl(chromiumError('https://app.example.com.evil.example/x.js'), ORIGIN)).toBeUndefined();
    expect(failedChunkUrl(new Error('Unable to preload CSS for /assets/x.css'), ORIGIN)).toBeUndefined();
  });

  it('reads gone chunks: 403 / 404 / 410; an answer or an offline HEAD is not gone', async () => {
    const answer = (status: number) => (async () => new Response(null, { status })) as unknown as typeof fetch;
    expect(await chunkIsGone(CHUNK, answer(404))).toBe(true);
    expect(await chunkIsGone(CHUNK, answer(403))).toBe(true);
    expect(await chunkIsGone(CHUNK, answer(200))).toBe(false);
    expect(await chunkIsGone(CHUNK, answer(503))).toBe(false);
    expect(
      await chunkIsGone(CHUNK, (async () => {
        throw new TypeError('Failed to fetch');
      }) as unknown as typeof fetch),
    ).toBe(false);
  });
});

describe('the API client agrees with the retry policy', () => {
  it('same header name and number of retries', () => {
    expect(CLIENT_HEADER).toBe(IDEMPOTENCY_KEY_HEADER);
    expect(API_RETRIES).toBe(4);
  });

  it('makes keys the server accepts without crypto.randomUUID (missing outside secure contexts, e.g. a custom host over http)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(200);
      for (const k of keys) expect(k).toMatch(IDEMPOTENCY_KEY_PATTERN);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
