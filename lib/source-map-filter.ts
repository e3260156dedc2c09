/**
 * Narrows a source map (v3) to the sources `keep` accepts: the mappings into other sources are
 * made unmapped, and the sources and names only they used dropped. Positions in that code then
 * stay those of the generated file. Used on the Lambda bundles (lib/lambda-bundles.ts: only our
 * code is mapped, so `--enable-source-maps` parses a far smaller map at cold start).
 */
import { decode, encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';

export interface SourceMapV3 {
  readonly version: 3;
  readonly sources: readonly string[];
  readonly names: readonly string[];
  readonly mappings: string;
  readonly [key: string]: unknown;
}

/** A decoded segment: [column] or [column, source, line, column] or [..., name], absolute values. */
export type Segment = readonly number[];

function isUnmapped(seg: Segment, sourceIndex: ReadonlyMap<number, number>): boolean {
  return seg.length < 4 || !sourceIndex.has(seg[1]!);
}

export function filterSourceMap(map: SourceMapV3, keep: (source: string) => boolean): SourceMapV3 {
  const sourceIndex = new Map<number, number>();
  const sources: string[] = [];
  map.sources.forEach((s, i) => {
    if (keep(s)) {
      sourceIndex.set(i, sources.length);
      sources.push(s);
    }
  });
  const nameIndex = new Map<number, number>();
  const names: string[] = [];
  const lines = decode(map.mappings).map((segments) =>
    segments.flatMap((seg, i) => {
      const source = seg.length >= 4 ? sourceIndex.get(seg[1]!) : undefined;
      // A dropped segment becomes an unmapped one (column only), so the kept segment before it
      // on the line does not stretch over the dropped code; a run of them needs only the first.
      if (source === undefined) return i > 0 && isUnmapped(segments[i - 1]!, sourceIndex) ? [] : [[seg[0]!]];
      const out = [seg[0]!, source, seg[2]!, seg[3]!];
      if (seg.length === 5) {
        let name = nameIndex.get(seg[4]!);
        if (name === undefined) {
          name = names.length;
          nameIndex.set(seg[4]!, name);
          names.push(map.names[seg[4]!]!);
        }
        out.push(name);
      }
      return [out];
    }),
  );
  const { sourcesContent, ...rest } = map as SourceMapV3 & { sourcesContent?: readonly (string | null)[] };
  return {
    ...rest,
    sources,
    names,
    mappings: encode(lines as SourceMapMappings),
    ...(sourcesContent ? { sourcesContent: sources.map((s) => sourcesContent[map.sources.indexOf(s)] ?? null) } : {}),
  };
}
