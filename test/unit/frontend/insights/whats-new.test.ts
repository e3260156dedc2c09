import { describe, expect, it } from 'vitest';
import type { ChangelogEntry } from '@domain/dashboard-api';
import {
  countLabel,
  countNew,
  isNewSince,
  lastOpenedKey,
  newSince,
  readLastOpened,
  writeLastOpened,
} from '@/features/whats-new/last-opened';

const entry = (id: string, created: string): ChangelogEntry => ({
  id,
  types: ['new'],
  created,
  title: id,
  markdownDetails: '',
});
const entries = [
  entry('c', '2026-03-10T00:00:00Z'),
  entry('b', '2026-02-01T00:00:00Z'),
  entry('a', '2026-01-01T00:00:00Z'),
];

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe("what's new: entries since the panel was last opened", () => {
  it('counts every entry for someone who never opened it', () => {
    expect(countNew(entries, null)).toBe(3);
  });

  it('counts nothing older than the account for an account that never opened it', () => {
    const createdAt = Date.parse('2026-02-15T00:00:00Z');
    expect(countNew(entries, newSince(null, createdAt))).toBe(1);
    expect(countNew(entries, newSince(null, Date.parse('2026-04-01T00:00:00Z')))).toBe(0);
    // the later of the account's creation and the last opening
    expect(newSince(Date.parse('2026-03-11T00:00:00Z'), createdAt)).toBe(Date.parse('2026-03-11T00:00:00Z'));
    expect(newSince(Date.parse('2026-01-02T00:00:00Z'), createdAt)).toBe(createdAt);
    // an account without a kept creation date: every entry until it opens the panel
    expect(newSince(null, undefined)).toBeNull();
  });

  it('counts only entries published after the last opening', () => {
    expect(countNew(entries, Date.parse('2026-01-15T00:00:00Z'))).toBe(2);
    expect(isNewSince(entries[1]!, Date.parse('2026-02-01T00:00:00Z'))).toBe(false);
    expect(countNew(entries, Date.parse('2026-03-11T00:00:00Z'))).toBe(0);
  });

  it('keeps the time per user, so another account here has its own count', () => {
    const storage = memoryStorage();
    writeLastOpened(storage, 'user-1', 1_750_000_000_000);
    expect(readLastOpened(storage, 'user-1')).toBe(1_750_000_000_000);
    expect(readLastOpened(storage, 'user-2')).toBeNull();
    expect(storage.data.has(lastOpenedKey('user-1'))).toBe(true);
  });

  it('survives junk and blocked storage', () => {
    const storage = memoryStorage();
    storage.setItem(lastOpenedKey('u'), 'yesterday');
    expect(readLastOpened(storage, 'u')).toBeNull();
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readLastOpened(blocked, 'u')).toBeNull();
    expect(() => writeLastOpened(blocked, 'u', 1)).not.toThrow();
    expect(readLastOpened(null, 'u')).toBeNull();
  });

  it("shows the count like the bell's badge", () => {
    expect(countLabel(0)).toBe('');
    expect(countLabel(3)).toBe('3');
    expect(countLabel(12)).toBe('9+');
  });
});
