/**
 * Narrows a source map (v3) to the sources `keep` accepts: the mappings into other sources are
 * made unmapped, and the sources and names only they used dropped. Positions in that code then
 * stay those of the generated file. Used on the Lambda bundles (lib/lambda-bundles.ts: only our
 * code is mapped, so `--enable-source-maps` parses a far smaller map at cold start).
 */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

export interface SourceMapV3 {
  readonly version: 3;
  readonly sources: readonly string[];
  readonly names: readonly string[];
  readonly mappings: string;
  readonly [key: string]: unknown;
}

/** A decoded segment: [column] or [column, source, line, column] or [..., name], absolute values. */
export type Segment = readonly number[];

export function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  const state = [0, 0, 0, 0, 0];
  for (const line of mappings.split(';')) {
    state[0] = 0;
    const segments: Segment[] = [];
    for (const text of line.split(',')) {
      if (text === '') continue;
      const fields = decodeVlq(text);
      const seg: number[] = [];
      fields.forEach((delta, i) => {
        state[i]! += delta;
        seg.push(state[i]!);
      });
      segments.push(seg);
    }
    lines.push(segments);
  }
  return lines;
}

export function encodeMappings(lines: readonly (readonly Segment[])[]): string {
  const state = [0, 0, 0, 0, 0];
  return lines
    .map((segments) => {
      state[0] = 0;
      return segments
        .map((seg) =>
          seg
            .map((value, i) => {
              const delta = value - state[i]!;
              state[i] = value;
              return encodeVlq(delta);
            })
            .join(''),
        )
        .join(',');
    })
    .join(';');
}

function decodeVlq(text: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const digit = DIGIT.get(c);
    if (digit === undefined) throw new Error(`invalid base64 VLQ character ${JSON.stringify(c)} in source map`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

function encodeVlq(n: number): string {
  let value = n < 0 ? (-n << 1) | 1 : n << 1;
  let text = '';
  do {
    let digit = value & 31;
    value >>>= 5;
    if (value > 0) digit |= 32;
    text += BASE64[digit];
  } while (value > 0);
  return text;
}

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
  const lines = decodeMappings(map.mappings).map((segments) =>
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
    mappings: encodeMappings(lines),
    ...(sourcesContent ? { sourcesContent: sources.map((s) => sourcesContent[map.sources.indexOf(s)] ?? null) } : {}),
  };
}
