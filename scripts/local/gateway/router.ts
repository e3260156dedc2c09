import type { HttpMethod, RouteDef } from '../../../functions/routes';

/**
 * Route matching as API Gateway HTTP API does it: method + path, literal segments win over
 * `{param}`, which wins over a greedy `{proxy+}` (which must be last and matches 1+ segments).
 */
type Segment = { kind: 'literal'; value: string } | { kind: 'param'; name: string } | { kind: 'greedy'; name: string };

interface Compiled {
  readonly route: RouteDef;
  readonly segments: readonly Segment[];
}

export interface Match {
  readonly route: RouteDef;
  readonly pathParameters: Record<string, string>;
}

function compile(route: RouteDef): Compiled {
  const parts = route.path.split('/').filter(Boolean);
  const segments = parts.map((p, i): Segment => {
    const greedy = /^\{(\w+)\+\}$/.exec(p);
    if (greedy) {
      if (i !== parts.length - 1) throw new Error(`${route.path}: {${greedy[1]}+} must be the last segment`);
      return { kind: 'greedy', name: greedy[1]! };
    }
    const param = /^\{(\w+)\}$/.exec(p);
    if (param) return { kind: 'param', name: param[1]! };
    if (/[{}]/.test(p)) throw new Error(`${route.path}: malformed segment ${p}`);
    return { kind: 'literal', value: p };
  });
  return { route, segments };
}

const RANK = { literal: 0, param: 1, greedy: 2 } as const;

/** Negative when `a` is more specific than `b`. */
function specificity(a: Compiled, b: Compiled): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const sa = a.segments[i];
    const sb = b.segments[i];
    if (!sa || !sb) return sa ? -1 : 1;
    const d = RANK[sa.kind] - RANK[sb.kind];
    if (d !== 0) return d;
  }
  return 0;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function createRouter(routes: readonly RouteDef[]) {
  const compiled = routes.map(compile).sort(specificity);
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${r.path.replace(/\{\w+\+?\}/g, '{}')}`;
    if (seen.has(key)) throw new Error(`route declared twice: ${r.method} ${r.path}`);
    seen.add(key);
  }

  function tryMatch(c: Compiled, parts: string[]): Record<string, string> | undefined {
    const params: Record<string, string> = {};
    for (let i = 0; i < c.segments.length; i++) {
      const seg = c.segments[i]!;
      if (seg.kind === 'greedy') {
        if (i >= parts.length) return undefined;
        params[seg.name] = parts.slice(i).map(safeDecode).join('/');
        return params;
      }
      const part = parts[i];
      if (part === undefined) return undefined;
      if (seg.kind === 'literal' && seg.value !== part) return undefined;
      if (seg.kind === 'param') params[seg.name] = safeDecode(part);
    }
    return parts.length === c.segments.length ? params : undefined;
  }

  return {
    match(method: string, path: string): Match | undefined {
      const parts = path.split('/').filter(Boolean);
      for (const c of compiled) {
        if (c.route.method !== (method.toUpperCase() as HttpMethod)) continue;
        const params = tryMatch(c, parts);
        if (params) return { route: c.route, pathParameters: params };
      }
      return undefined;
    },
  };
}
