import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../../frontend/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

// static imports and re-exports (type-only too), side-effect imports, and import() (lazy or in a type)
const IMPORT =
  /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** The file an `@/` or relative specifier names inside frontend/src, if it does. */
function target(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return null;
  const found = [base, `${base}.ts`, `${base}.tsx`].find((c) => existsSync(c) && statSync(c).isFile());
  return found?.startsWith(SRC) ? found : null;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(IMPORT)]
      .map((m) => target(file, (m[1] ?? m[2] ?? m[3])!))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

const featureOf = (file: string) => /^features\/([^/]+)\//.exec(relative(SRC, file))?.[1] ?? null;

/** Every cycle's files, one group per strongly connected component of more than one file (or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(relative(SRC, w));
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

describe("the frontend's import boundaries", () => {
  const graph = importGraph();

  it('reads the imports it checks (aliased, relative and lazy)', () => {
    const routes = graph.get(join(SRC, 'app/dash-routes.tsx')) ?? [];
    expect(routes.map((f) => relative(SRC, f))).toContain('features/transfers/routes.ts');
    expect(graph.size).toBeGreaterThan(100);
  });

  it('has no import from one features/* folder into another', () => {
    const crossing = [...graph].flatMap(([file, deps]) =>
      deps
        .filter((dep) => featureOf(file) !== null && featureOf(dep) !== null && featureOf(dep) !== featureOf(file))
        .map((dep) => `${relative(SRC, file)} -> ${relative(SRC, dep)}`),
    );
    expect(crossing).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle and a crossing when there is one', () => {
    const a = join(SRC, 'features/a/x.ts');
    const b = join(SRC, 'features/b/y.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toHaveLength(1);
    expect(featureOf(a)).not.toBe(featureOf(b));
  });
});
