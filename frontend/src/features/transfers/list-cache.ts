/**
 * Transfer lists cached per filter and search (spec §3: "Transfer lists are cached locally per
 * filter"), in memory and in sessionStorage, so a list shows at once (also after a reload) and
 * is then refreshed in the background (stale-while-revalidate, see use-transfer-list.ts).
 * Entries belong to one user: a key names the user, and another user's entries are dropped
 * when this one writes. An action on a transfer invalidates every list: views showing one
 * fetch it again, and an answer requested before the invalidation is not written back.
 */
import type { ListFilter, TransferListResponse, TransferRow } from '@domain/dashboard-api';

/** The unseen and expiring-soon counts may be missing from a list cached by an older version of the app. */
export type ListCounts = Pick<
  TransferListResponse,
  'allCount' | 'activeCount' | 'expiredCount' | 'thisMonthsTransfers' | 'sharedCount'
> &
  Partial<Pick<TransferListResponse, 'unseenCount' | 'expiringCount'>>;

function countsOf(response: TransferListResponse): ListCounts {
  const { allCount, activeCount, expiredCount, unseenCount, expiringCount, thisMonthsTransfers, sharedCount } =
    response;
  return { allCount, activeCount, expiredCount, unseenCount, expiringCount, thisMonthsTransfers, sharedCount };
}

export interface CachedList {
  readonly rows: readonly TransferRow[];
  readonly counts: ListCounts;
  readonly hasMore: boolean;
  /** epoch ms of the answer the first page came from */
  readonly fetchedAt: number;
}

export interface ListKey {
  readonly userId: string;
  readonly filter: ListFilter;
  /** the search, trimmed; '' for none */
  readonly q: string;
}

/** What of sessionStorage the cache uses (tests pass a Map-backed one, private modes null). */
export interface CacheStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const STORAGE_PREFIX = 'sendbridge.transfers.';
/** Rows kept in sessionStorage per list: a reload shows the first pages; more come from the API. */
export const STORED_ROWS_MAX = 100;

function storageKey({ userId, filter, q }: ListKey): string {
  return `${STORAGE_PREFIX}${userId}.${filter}.${encodeURIComponent(q)}`;
}

function isCachedList(value: unknown): value is CachedList {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<CachedList>;
  return (
    Array.isArray(v.rows) &&
    typeof v.counts === 'object' &&
    v.counts !== null &&
    typeof v.hasMore === 'boolean' &&
    typeof v.fetchedAt === 'number'
  );
}

/** The first page of an answer as a cache entry. */
export function entryOf(response: TransferListResponse, fetchedAt: number): CachedList {
  return { rows: response.allDocs, counts: countsOf(response), hasMore: response.hasMore, fetchedAt };
}

/** A next page appended: rows already listed (a transfer that moved up meanwhile) are not repeated. */
export function withNextPage(entry: CachedList, page: TransferListResponse): CachedList {
  const seen = new Set(entry.rows.map((r) => r.slug));
  const rows = [...entry.rows, ...page.allDocs.filter((r) => !seen.has(r.slug))];
  return { ...entry, rows, hasMore: page.hasMore, counts: countsOf(page) };
}

export class TransferListCache {
  private readonly memory = new Map<string, CachedList>();
  private readonly listeners = new Set<() => void>();
  private generation = 0;

  constructor(private readonly storage: CacheStorage | null) {}

  /** Bumped by every invalidation; a fetch remembers it and writes back only if it is unchanged. */
  getGeneration = (): number => this.generation;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get(key: ListKey): CachedList | null {
    const id = storageKey(key);
    const held = this.memory.get(id);
    if (held) return held;
    const stored = this.read(id);
    if (stored) this.memory.set(id, stored);
    return stored;
  }

  /** Stores an answer fetched during `generation`; false (and nothing stored) when it is stale. */
  set(key: ListKey, entry: CachedList, generation: number = this.generation): boolean {
    if (generation !== this.generation) return false;
    const id = storageKey(key);
    this.memory.set(id, entry);
    this.write(id, key.userId, entry);
    return true;
  }

  /**
   * After an action on a transfer: every list is out of date. A deleted transfer leaves the
   * cached lists at once, so nothing shows it while the fresh answers arrive.
   */
  invalidate(change: { readonly removedSlug?: string } = {}): void {
    this.generation += 1;
    const { removedSlug } = change;
    for (const [id, entry] of this.memory) {
      if (removedSlug && entry.rows.some((r) => r.slug === removedSlug)) {
        this.memory.set(id, { ...entry, rows: entry.rows.filter((r) => r.slug !== removedSlug), fetchedAt: 0 });
      } else {
        this.memory.set(id, { ...entry, fetchedAt: 0 });
      }
    }
    for (const id of this.storedIds()) this.remove(id);
    for (const listener of [...this.listeners]) listener();
  }

  private storedIds(userId?: string): string[] {
    if (!this.storage) return [];
    const ids: string[] = [];
    try {
      for (let i = 0; i < this.storage.length; i++) {
        const id = this.storage.key(i);
        if (id?.startsWith(STORAGE_PREFIX) && (userId === undefined || id.startsWith(`${STORAGE_PREFIX}${userId}.`)))
          ids.push(id);
      }
    } catch {
      // storage blocked: nothing stored to list
    }
    return ids;
  }

  private read(id: string): CachedList | null {
    try {
      const text = this.storage?.getItem(id);
      if (!text) return null;
      const value: unknown = JSON.parse(text);
      return isCachedList(value) ? value : null;
    } catch {
      // unreadable or foreign JSON: as if nothing were cached
      return null;
    }
  }

  private write(id: string, userId: string, entry: CachedList): void {
    if (!this.storage) return;
    // Lists of whoever used this tab before stay only in their own sessions.
    const mine = `${STORAGE_PREFIX}${userId}.`;
    for (const other of this.storedIds()) if (!other.startsWith(mine)) this.remove(other);
    const stored =
      entry.rows.length > STORED_ROWS_MAX
        ? { ...entry, rows: entry.rows.slice(0, STORED_ROWS_MAX), hasMore: true }
        : entry;
    try {
      this.storage.setItem(id, JSON.stringify(stored));
    } catch {
      // Quota or blocked storage: the memory copy still serves this page.
    }
  }

  private remove(id: string): void {
    try {
      this.storage?.removeItem(id);
    } catch {
      // see write
    }
  }
}

function browserSessionStorage(): CacheStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Reading sessionStorage throws when the browser blocks site data.
    return null;
  }
}

let shared: TransferListCache | null = null;

/** The app's one cache, made on first use. */
export function transferListCache(): TransferListCache {
  shared ??= new TransferListCache(browserSessionStorage());
  return shared;
}
