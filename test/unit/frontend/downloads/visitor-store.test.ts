import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VISITOR_ID_PATTERN } from '@domain/review';
import { rememberVisitor, storedVisitor } from '@/features/downloads/review/visitor-store';
import { memoryStorage } from '../../../helpers/memory-storage';

describe('the visitor store', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it('gives a new visitor a random 22-character id and keeps it, per transfer, across a change of name', () => {
    expect(storedVisitor('t1')).toBeUndefined();
    const first = rememberVisitor('t1', '  Robin  ');
    expect(first.name).toBe('Robin');
    expect(VISITOR_ID_PATTERN.test(first.visitorId)).toBe(true);
    expect(storedVisitor('t1')).toEqual(first);
    const renamed = rememberVisitor('t1', 'Robin B.');
    expect(renamed).toEqual({ visitorId: first.visitorId, name: 'Robin B.' });
    const other = rememberVisitor('t2', 'Robin');
    expect(other.visitorId).not.toBe(first.visitorId);
  });

  it('ignores what it cannot use: a malformed id, a broken entry', () => {
    localStorage.setItem('sendbridge.review.visitor.t1', JSON.stringify({ visitorId: 'short', name: 'X' }));
    expect(storedVisitor('t1')).toBeUndefined();
    localStorage.setItem('sendbridge.review.visitor.t1', '{not json');
    expect(storedVisitor('t1')).toBeUndefined();
  });

  it('still names the visitor when the browser refuses storage', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    });
    const visitor = rememberVisitor('t1', 'Robin');
    expect(visitor.name).toBe('Robin');
    expect(VISITOR_ID_PATTERN.test(visitor.visitorId)).toBe(true);
    expect(storedVisitor('t1')).toBeUndefined();
  });
});
