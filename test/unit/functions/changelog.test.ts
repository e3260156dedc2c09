import { describe, expect, it } from 'vitest';
import { CHANGELOG } from '../../../functions/content/changelog';
import { changelog } from '../../../functions/services/changelog';

describe('the changelog we own (functions/content/changelog.ts)', () => {
  it('has unique, URL-safe ids', () => {
    const ids = CHANGELOG.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/u);
  });

  it('has valid ISO dates, newest first, none in the future', () => {
    for (const e of CHANGELOG) {
      expect(new Date(e.created).toISOString(), e.id).toBe(e.created);
      expect(Date.parse(e.created), e.id).toBeLessThanOrEqual(Date.now());
    }
    const times = CHANGELOG.map((e) => Date.parse(e.created));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('has types, a title and markdown details without raw HTML', () => {
    for (const e of CHANGELOG) {
      expect(e.types.length, e.id).toBeGreaterThan(0);
      for (const t of e.types) expect(['new', 'improved', 'fixed']).toContain(t);
      expect(e.title.trim(), e.id).not.toBe('');
      expect(e.markdownDetails.trim(), e.id).not.toBe('');
      expect(e.markdownDetails, e.id).not.toMatch(/<[a-z/!]/iu);
    }
  });

  it('carries the entries the /updates page showed before', () => {
    const byId = new Map(CHANGELOG.map((e) => [e.id, e]));
    expect(byId.get('website')?.title).toBe('A new home for SendBridge');
    expect(byId.get('languages')?.title).toBe('Eight languages');
    expect(byId.get('not-found')?.title).toBe('Clearer missing pages');
  });

  it('is served newest first whatever the order it is written in', () => {
    const shuffled = [...CHANGELOG].reverse();
    expect(changelog(shuffled).entries.map((e) => e.id)).toEqual(CHANGELOG.map((e) => e.id));
  });
});
