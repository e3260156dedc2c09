import { describe, expect, it } from 'vitest';
import {
  decode as decodeMappings,
  encode as encodeMappings,
  type SourceMapMappings,
} from '@jridgewell/sourcemap-codec';
import { filterSourceMap, type SourceMapV3 } from '../../../lib/source-map-filter';

describe('filterSourceMap', () => {
  // generated line 1: col 0 → a.ts 0:0 "x"; col 5 → node_modules/dep.js 3:2; col 9 → dep.js 4:0 "y"; col 12 → a.ts 1:4
  // generated line 2: col 2 → node_modules/dep.js 0:0; col 7 → b.ts 2:1 "z"
  const lines: SourceMapMappings = [
    [
      [0, 0, 0, 0, 0],
      [5, 1, 3, 2],
      [9, 1, 4, 0, 1],
      [12, 0, 1, 4],
    ],
    [
      [2, 1, 0, 0],
      [7, 2, 2, 1, 2],
    ],
  ];
  const map: SourceMapV3 = {
    version: 3,
    sources: ['a.ts', 'node_modules/dep.js', 'b.ts'],
    names: ['x', 'y', 'z'],
    mappings: encodeMappings(lines),
  };

  it('keeps the accepted sources with their positions and names, and leaves the rest unmapped (one segment per dropped run)', () => {
    const out = filterSourceMap(map, (s) => !s.includes('node_modules'));
    expect(out.sources).toEqual(['a.ts', 'b.ts']);
    expect(out.names).toEqual(['x', 'z']);
    expect(decodeMappings(out.mappings)).toEqual([
      [[0, 0, 0, 0, 0], [5], [12, 0, 1, 4]],
      [[2], [7, 1, 2, 1, 1]],
    ]);
  });
});
