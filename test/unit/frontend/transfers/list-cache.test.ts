import { describe, expect, it } from 'vitest';
import type { TransferListResponse, TransferRow } from '@domain/dashboard-api';
import {
  STORAGE_PREFIX,
  STORED_ROWS_MAX,
  TransferListCache,
  entryOf,
  withNextPage,
  type CacheStorage,
  type ListKey,
} from '@/features/transfers/list-cache';

/** sessionStorage's interface over a Map (the unit project has no DOM). */
class MapStorage implements CacheStorage {
  readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

function row(slug: string, extra: Partial<TransferRow> = {}): TransferRow {
  return {
    _id: `id-${slug}`,
    slug,
    fileName: `${slug}.pdf`,
    fileCount: 1,
    size: 1000,
    sendAs: 'email',
    recipients: ['bob@example.com'],
    dateSent: 1_700_000_000_000,
    expiryDate: 1_800_000_000_000,
    state: 'active',
    total_downloads: 0,
    hasPassword: false,
    region: 'hongkong',
    ...extra,
  };
}

function response(slugs: string[], extra: Partial<TransferListResponse> = {}): TransferListResponse {
  return {
    allDocs: slugs.map((s) => row(s)),
    filter: 'all',
    skip: 0,
    hasMore: false,
    allCount: slugs.length,
    activeCount: slugs.length,
    expiredCount: 0,
    unseenCount: slugs.length,
    expiringCount: 0,
    thisMonthsTransfers: 2,
    sharedCount: 0,
    ...extra,
  };
}

const ADA: ListKey = { userId: 'ada', filter: 'all', q: '' };

describe('transfer list cache (spec §3: lists cached locally per filter)', () => {
  it('keeps a list per user, filter and search, in memory and in sessionStorage', () => {
    const storage = new MapStorage();
    const cache = new TransferListCache(storage);
    cache.set(ADA, entryOf(response(['aaaaaaa']), 1));
    cache.set({ ...ADA, filter: 'active' }, entryOf(response(['bbbbbbb']), 2));
    cache.set({ ...ADA, q: 'report q4' }, entryOf(response(['ccccccc']), 3));

    expect(cache.get(ADA)?.rows.map((r) => r.slug)).toEqual(['aaaaaaa']);
    expect(cache.get({ ...ADA, filter: 'active' })?.rows.map((r) => r.slug)).toEqual(['bbbbbbb']);
    expect(cache.get({ ...ADA, q: 'report q4' })?.rows.map((r) => r.slug)).toEqual(['ccccccc']);
    expect(cache.get({ ...ADA, filter: 'expired' })).toBeNull();
    expect(storage.items.size).toBe(3);
    expect([...storage.items.keys()].every((k) => k.startsWith(`${STORAGE_PREFIX}ada.`))).toBe(true);
  });

  it('shows a list after a reload from sessionStorage (a new cache over the same storage)', () => {
    const storage = new MapStorage();
    new TransferListCache(storage).set(ADA, entryOf(response(['aaaaaaa'], { allCount: 7, thisMonthsTransfers: 3 }), 5));
    const reloaded = new TransferListCache(storage).get(ADA);
    expect(reloaded?.rows.map((r) => r.slug)).toEqual(['aaaaaaa']);
    expect(reloaded?.counts).toEqual({
      allCount: 7,
      activeCount: 1,
      expiredCount: 0,
      unseenCount: 1,
      expiringCount: 0,
      thisMonthsTransfers: 3,
      sharedCount: 0,
    });
    expect(reloaded?.fetchedAt).toBe(5);
  });

  it("never shows one user's list to another, and drops the previous user's lists when the next one writes", () => {
    const storage = new MapStorage();
    const cache = new TransferListCache(storage);
    cache.set(ADA, entryOf(response(['aaaaaaa']), 1));
    expect(cache.get({ ...ADA, userId: 'bob' })).toBeNull();
    cache.set({ ...ADA, userId: 'bob' }, entryOf(response(['bbbbbbb']), 2));
    expect([...storage.items.keys()]).toEqual([`${STORAGE_PREFIX}bob.all.`]);
  });

  it('after an invalidation, refuses an answer requested before it and tells its listeners', () => {
    const cache = new TransferListCache(new MapStorage());
    let told = 0;
    cache.subscribe(() => {
      told += 1;
    });
    const before = cache.getGeneration();
    cache.set(ADA, entryOf(response(['aaaaaaa']), 1));
    cache.invalidate();
    expect(told).toBe(1);
    expect(cache.getGeneration()).toBe(before + 1);
    // The answer of a request sent before the action is out of date: not stored.
    expect(cache.set(ADA, entryOf(response(['stale00']), 2), before)).toBe(false);
    expect(cache.get(ADA)?.rows.map((r) => r.slug)).toEqual(['aaaaaaa']);
    expect(cache.set(ADA, entryOf(response(['fresh00']), 3), cache.getGeneration())).toBe(true);
    expect(cache.get(ADA)?.rows.map((r) => r.slug)).toEqual(['fresh00']);
  });

  it('invalidation empties sessionStorage, keeps the memory copy on screen marked stale, and takes a deleted transfer out at once', () => {
    const storage = new MapStorage();
    const cache = new TransferListCache(storage);
    cache.set(ADA, entryOf(response(['aaaaaaa', 'bbbbbbb']), 10));
    cache.set({ ...ADA, filter: 'unseen' }, entryOf(response(['bbbbbbb']), 10));
    cache.invalidate({ removedSlug: 'bbbbbbb' });
    expect(storage.items.size).toBe(0);
    expect(cache.get(ADA)?.rows.map((r) => r.slug)).toEqual(['aaaaaaa']);
    expect(cache.get(ADA)?.fetchedAt).toBe(0);
    expect(cache.get({ ...ADA, filter: 'unseen' })?.rows).toEqual([]);
  });

  it('stores at most STORED_ROWS_MAX rows in sessionStorage, saying more exist', () => {
    const storage = new MapStorage();
    const slugs = Array.from({ length: STORED_ROWS_MAX + 20 }, (_, i) => `s${String(i).padStart(6, '0')}`);
    new TransferListCache(storage).set(ADA, entryOf(response(slugs), 1));
    const stored = new TransferListCache(storage).get(ADA);
    expect(stored?.rows).toHaveLength(STORED_ROWS_MAX);
    expect(stored?.hasMore).toBe(true);
  });

  it('reads unreadable or foreign entries as nothing cached, and works without storage or with a throwing one', () => {
    const storage = new MapStorage();
    storage.setItem(`${STORAGE_PREFIX}ada.all.`, '{not json');
    storage.setItem(`${STORAGE_PREFIX}ada.active.`, JSON.stringify({ rows: 'nope' }));
    const cache = new TransferListCache(storage);
    expect(cache.get(ADA)).toBeNull();
    expect(cache.get({ ...ADA, filter: 'active' })).toBeNull();

    const memoryOnly = new TransferListCache(null);
    memoryOnly.set(ADA, entryOf(response(['aaaaaaa']), 1));
    expect(memoryOnly.get(ADA)?.rows).toHaveLength(1);

    const full: CacheStorage = Object.assign(new MapStorage(), {
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    });
    const quota = new TransferListCache(full);
    expect(() => quota.set(ADA, entryOf(response(['aaaaaaa']), 1))).not.toThrow();
    expect(quota.get(ADA)?.rows).toHaveLength(1);
  });

  it('appends a next page without repeating a transfer already listed, with the newest counts', () => {
    const first = entryOf(response(['aaaaaaa', 'bbbbbbb'], { hasMore: true, allCount: 3 }), 1);
    const next = withNextPage(first, response(['bbbbbbb', 'ccccccc'], { skip: 2, hasMore: false, allCount: 4 }));
    expect(next.rows.map((r) => r.slug)).toEqual(['aaaaaaa', 'bbbbbbb', 'ccccccc']);
    expect(next.hasMore).toBe(false);
    expect(next.counts.allCount).toBe(4);
    expect(next.fetchedAt).toBe(1);
  });
});
