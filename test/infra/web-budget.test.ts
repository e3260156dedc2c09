import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, kib, readManifest, screenJs, type Manifest, type Screen } from '../../frontend/web-bundle';

/**
 * Issue 10's first-load budgets: the JavaScript a first visit downloads (entry chunk + the
 * screen's lazy route chunks + their static imports + the English catalogues its routes wait
 * for, from Vite's manifest, + the other scripts index.html loads), gzip at zlib's default
 * level, in KiB (frontend/web-bundle.ts). `target` is the issue's number. Where the app is not there yet,
 * `ceiling` is what this test enforces meanwhile: the measured size when it was set plus under
 * 2 KiB, so any growth fails; lower it whenever a change makes the screen lighter. A ceiling
 * under the target keeps a screen from growing back after it was made lighter for Lighthouse.
 */
const BUDGETS: Record<Screen, { readonly target: number; readonly ceiling?: number; readonly why?: string }> = {
  download: { target: 90, ceiling: 88, why: 'measured 85.1 KiB after the Lighthouse work on the first load (docs/benchmarks.md); 87.4 KiB once issue 16 added the previews\' loader and the chunk-recovery preload, 86.7 KiB once its product texts moved to the pages catalogue' },
  home: { target: 150, ceiling: 113, why: 'measured 111.8 KiB once zod and the draft schema left the first load (they load on the quick send\'s first interaction; docs/benchmarks.md)' },
  dash: { target: 220 },
};

let outDir: string;
let manifest: Manifest;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'sendbridge-web-budget-'));
  await buildWeb(outDir);
  manifest = readManifest(outDir);
});

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('first-load JavaScript per screen (gzip, KiB)', () => {
  for (const [screen, budget] of Object.entries(BUDGETS) as [Screen, (typeof BUDGETS)[Screen]][]) {
    it(`${screen}: at most ${budget.ceiling ?? budget.target} KiB (issue 10 target ${budget.target} KiB)`, () => {
      const js = screenJs(outDir, manifest, screen);
      const limit = (budget.ceiling ?? budget.target) * 1024;
      const top = js.files
        .slice(0, 6)
        .map((f) => `${f.file} ${kib(f.gzipBytes)}`)
        .join(', ');
      const status =
        budget.ceiling === undefined
          ? `target ${budget.target} KiB`
          : budget.ceiling <= budget.target
            ? `target ${budget.target} KiB met; enforced ceiling ${budget.ceiling} KiB (${budget.why})`
            : `target ${budget.target} KiB not reached yet (${budget.why}); enforced ceiling ${budget.ceiling} KiB`;
      expect(js.gzipBytes, `${screen}: ${kib(js.gzipBytes)} KiB gzip in ${js.files.length} files; ${status}; largest: ${top}`).toBeLessThanOrEqual(limit);
    });
  }

  it('keeps zod off the download page, and so out of the entry chunk', () => {
    expect(screenJs(outDir, manifest, 'download').files.filter((f) => hasZod(f.file)).map((f) => f.file)).toEqual([]);
  });

  it("keeps zod off home: the quick send loads the draft schema on the sender's first interaction", () => {
    expect(screenJs(outDir, manifest, 'home').files.filter((f) => hasZod(f.file)).map((f) => f.file)).toEqual([]);
  });

  it("counts the catalogues a screen's routes wait for: home's quick-send texts, none on the download page", () => {
    const sendTexts = manifest['src/i18n/locales/send/en.json']?.file;
    expect(sendTexts).toBeDefined();
    expect(screenJs(outDir, manifest, 'home').files.map((f) => f.file)).toContain(sendTexts);
    expect(screenJs(outDir, manifest, 'download').files.map((f) => f.file)).not.toContain(sendTexts);
  });

  it('sees zod where the schemas are used (the checks above can fail)', () => {
    // the chunks the quick send loads for its draft schema: validation.ts and what it imports
    const lazy = '../functions/domain/validation.ts';
    expect(manifest[lazy]?.isDynamicEntry).toBe(true);
    const closure = new Set<string>();
    const visit = (key: string) => {
      if (closure.has(key)) return;
      closure.add(key);
      manifest[key]!.imports?.forEach(visit);
    };
    visit(lazy);
    expect([...closure].some((key) => hasZod(manifest[key]!.file))).toBe(true);
    // and the signed-in dashboard, whose screens import schemas statically
    expect(screenJs(outDir, manifest, 'dash').files.some((f) => hasZod(f.file))).toBe(true);
  });
});

/** zod's classes are made by name ("$ZodType"); minifying keeps the string. */
function hasZod(file: string): boolean {
  return readFileSync(join(outDir, file), 'utf8').includes('$ZodType');
}
