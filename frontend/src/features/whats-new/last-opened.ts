import type { ChangelogEntry } from '@domain/dashboard-api';

/**
 * When a user last opened the what's-new panel, kept in this browser per user id (another
 * account signed in here has its own): the button counts the entries published since.
 */
export const LAST_OPENED_PREFIX = 'sendbridge.whatsNew.lastOpened.';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

export function lastOpenedKey(userId: string): string {
  return `${LAST_OPENED_PREFIX}${userId}`;
}

/** ms since the epoch, or null when this user never opened it here (or storage is blocked). */
export function readLastOpened(storage: Storage | null, userId: string): number | null {
  try {
    const raw = storage?.getItem(lastOpenedKey(userId));
    if (!raw) return null;
    const at = Number(raw);
    return Number.isFinite(at) && at > 0 ? at : null;
  } catch {
    return null;
  }
}

export function writeLastOpened(storage: Storage | null, userId: string, at: number): void {
  try {
    storage?.setItem(lastOpenedKey(userId), String(at));
  } catch {
    // Blocked storage: the count starts over next visit, nothing else breaks.
  }
}

/**
 * Where the count starts: the last opening of the panel, or, for an account that never opened it
 * here, the account's creation (entries older than the account are not news to it); null when
 * neither is known (an account made before its creation date was kept: every entry is new).
 */
export function newSince(lastOpened: number | null, accountCreatedAt: number | undefined): number | null {
  const created =
    accountCreatedAt !== undefined && Number.isFinite(accountCreatedAt) && accountCreatedAt > 0
      ? accountCreatedAt
      : null;
  if (lastOpened === null) return created;
  return created === null ? lastOpened : Math.max(lastOpened, created);
}

/** Published after `lastOpened`; every entry is new to someone who never opened the panel. */
export function isNewSince(entry: ChangelogEntry, lastOpened: number | null): boolean {
  if (lastOpened === null) return true;
  const created = Date.parse(entry.created);
  return Number.isFinite(created) && created > lastOpened;
}

export function countNew(entries: readonly ChangelogEntry[], lastOpened: number | null): number {
  return entries.filter((entry) => isNewSince(entry, lastOpened)).length;
}

/** The button's count: '9+' above 9, like the notifications badge. */
export function countLabel(count: number): string {
  if (count <= 0) return '';
  return count > 9 ? '9+' : String(count);
}

export function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
