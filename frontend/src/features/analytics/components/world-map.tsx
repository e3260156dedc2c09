import { geoEqualEarth, geoPath } from 'd3-geo';
import { useId, useMemo } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';
import { numericOf } from '../country-codes';
import { SHADES, shadeOf } from '../map-scale';

const WIDTH = 960;
const HEIGHT = 440;
const ANTARCTICA = '010';

interface Shape {
  readonly id: string | undefined;
  readonly d: string;
}

/** Country outlines, projected once per page load (Natural Earth 1:110m, ids ISO 3166 numeric). */
let shapes: readonly Shape[] | null = null;
function countryShapes(): readonly Shape[] {
  if (shapes) return shapes;
  const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const countries = feature(topology, topology.objects.countries);
  const kept = countries.features.filter((f) => f.id !== ANTARCTICA);
  const projection = geoEqualEarth().fitSize([WIDTH, HEIGHT], { type: 'FeatureCollection', features: kept });
  const path = geoPath(projection);
  shapes = kept.map((f) => ({ id: f.id === undefined ? undefined : String(f.id), d: path(f) ?? '' }));
  return shapes;
}

/**
 * Downloads by country as a choropleth. The SVG is one image with a title; the table beside
 * it carries the numbers for assistive technology.
 */
export function WorldMap({
  countries,
  title,
  legendFewer,
  legendMore,
}: {
  countries: readonly { readonly countryCode: string; readonly downloads: number }[];
  title: string;
  legendFewer: string;
  legendMore: string;
}) {
  const titleId = useId();
  const byNumeric = useMemo(() => {
    const map = new Map<string, number>();
    for (const c of countries) {
      const numeric = numericOf(c.countryCode);
      if (numeric) map.set(numeric, (map.get(numeric) ?? 0) + c.downloads);
    }
    return map;
  }, [countries]);
  const max = Math.max(0, ...byNumeric.values());

  return (
    <figure className="analytics-map">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} data-testid="analytics-map">
        <title id={titleId}>{title}</title>
        {countryShapes().map((shape, i) => (
          <path
            key={shape.id ?? `n${i}`}
            d={shape.d}
            className={`map-shade-${shape.id ? shadeOf(byNumeric.get(shape.id) ?? 0, max) : 0}`}
            data-numeric={shape.id}
          />
        ))}
      </svg>
      <div className="analytics-map-legend" aria-hidden="true">
        <span>{legendFewer}</span>
        {Array.from({ length: SHADES }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the legend's shades are a fixed scale
          <span key={i} className={`analytics-map-swatch map-shade-${i + 1}`} />
        ))}
        <span>{legendMore}</span>
      </div>
    </figure>
  );
}
