import { useId } from 'react';
import { HEIGHT, LAND_PATH, WIDTH, project } from './world-map-geometry';

export interface MapPin {
  readonly id: string;
  readonly label: string;
  readonly lonLat: readonly [number, number];
  readonly kind: 'office' | 'region';
  /** where the label sits relative to the pin (default: above right) */
  readonly labelAt?: 'left' | 'below';
}

/** Static world map with pins; `arcsFrom` draws transfer arcs from that pin to the others. */
export function WorldMap({ pins, arcsFrom, title }: { pins: readonly MapPin[]; arcsFrom?: string; title: string }) {
  const titleId = useId();
  const origin = pins.find((p) => p.id === arcsFrom);
  return (
    <svg className="world-map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId}>
      <title id={titleId}>{title}</title>
      <path d={LAND_PATH} className="world-map-land" />
      {origin &&
        pins
          .filter((p) => p !== origin)
          .map((p) => {
            const [x1, y1] = project(origin.lonLat);
            const [x2, y2] = project(p.lonLat);
            const cx = (x1 + x2) / 2;
            const cy = Math.min(y1, y2) - Math.abs(x2 - x1) * 0.25;
            return <path key={p.id} d={`M${x1} ${y1}Q${cx} ${cy} ${x2} ${y2}`} className="world-map-arc" />;
          })}
      {pins.map((p) => {
        const [x, y] = project(p.lonLat);
        const at = p.labelAt ?? 'right';
        const label = (
          {
            right: { x: 16, y: -14, anchor: 'start' },
            left: { x: -16, y: -14, anchor: 'end' },
            below: { x: 0, y: 42, anchor: 'middle' },
          } as const
        )[at];
        return (
          <g key={p.id} className={`world-map-pin world-map-pin-${p.kind}`} transform={`translate(${x} ${y})`}>
            <circle r={p.kind === 'office' ? 18 : 14} className="world-map-halo" />
            <circle r={p.kind === 'office' ? 9 : 7} />
            <text x={label.x} y={label.y} textAnchor={label.anchor}>
              {p.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
