import { describe, expect, it } from 'vitest';
import { COMPARISON_ROWS, FREE_PLAN_EXPIRY_DAYS } from '@/features/compare/compare-content';
import { allowedExpiryPresets } from '@domain/expiry';
import { CHECKED_ON, COMPETITORS, competitorSources } from '@/features/compare/competitors';
import { GB } from '@domain/units';
import { PLANS } from '@domain/plans';

/** Each company's own sites: a figure is cited from the company itself, never a third party. */
const OWN_HOSTS: Record<string, RegExp> = { wetransfer: /(^|\.)wetransfer\.com$/, smash: /(^|\.)fromsmash\.com$/ };

describe('comparison table', () => {
  it('compares against two competitors, every row filled for each', () => {
    expect(COMPETITORS.map((c) => c.name)).toEqual(['WeTransfer', 'Smash']);
    for (const c of COMPETITORS) expect(Object.keys(c.figures).sort()).toEqual(COMPARISON_ROWS.map((r) => r.id).sort());
  });

  it("cites every published figure from the company's own https pages; the others say not published", () => {
    for (const c of COMPETITORS) {
      for (const [row, figure] of Object.entries(c.figures)) {
        if (figure.kind === 'notPublished') continue;
        const url = new URL(figure.source);
        expect(url.protocol, `${c.id} ${row}`).toBe('https:');
        expect(url.hostname, `${c.id} ${row}`).toMatch(OWN_HOSTS[c.id]!);
      }
    }
    expect(competitorSources().map((s) => s.url)).toHaveLength(new Set(competitorSources().map((s) => s.url)).size);
    expect(COMPETITORS.find((c) => c.id === 'wetransfer')!.figures.transferLimit).toMatchObject({
      kind: 'bytes',
      bytes: 2 * GB,
    });
    expect(COMPETITORS.find((c) => c.id === 'smash')!.figures.expiry).toMatchObject({
      kind: 'daysDefaultMax',
      days: 7,
      max: 14,
    });
  });

  it('names the day the figures were checked, a real date not in the future of the code', () => {
    expect(CHECKED_ON).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(`${CHECKED_ON}T00:00:00Z`).toISOString().slice(0, 10)).toBe(CHECKED_ON);
  });

  it("keeps both readings of our free plan: the spec's comparison claims beside the plan table", () => {
    const row = (id: string) => COMPARISON_ROWS.find((r) => r.id === id)!;
    expect(row('freeStorage')).toEqual({
      id: 'freeStorage',
      claim: { bytes: 10 * GB },
      planTable: { bytes: PLANS.free.storage },
    });
    expect(row('transferLimit')).toEqual({
      id: 'transferLimit',
      claim: { bytes: 5 * GB },
      planTable: { bytes: 3 * GB },
    });
    expect(row('expiry').claim).toMatchObject({ days: 14 });
    expect(row('expiry').planTable).toMatchObject({ days: 7 });
    expect(Math.max(...allowedExpiryPresets('free'))).toBe(FREE_PLAN_EXPIRY_DAYS * 86_400);
    expect(row('recipients').claim).toMatchObject({ count: 20 });
    expect(row('recipients').planTable).toMatchObject({ count: 6 });
  });
});
