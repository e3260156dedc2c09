import { useId } from 'react';

/** Rough low-poly continents as [longitude, latitude]; an illustration, not cartography. */
const LAND: readonly (readonly [number, number])[][] = [
  // North America
  [
    [-168, 66],
    [-162, 70],
    [-140, 70],
    [-125, 72],
    [-95, 72],
    [-80, 73],
    [-62, 66],
    [-55, 52],
    [-66, 45],
    [-70, 42],
    [-76, 35],
    [-81, 31],
    [-80, 25],
    [-83, 29],
    [-90, 30],
    [-97, 27],
    [-97, 21],
    [-87, 21],
    [-88, 16],
    [-83, 10],
    [-79, 8],
    [-85, 11],
    [-92, 15],
    [-105, 20],
    [-110, 23],
    [-115, 30],
    [-118, 34],
    [-124, 40],
    [-124, 48],
    [-132, 55],
    [-140, 60],
    [-152, 58],
    [-165, 60],
  ],
  // Greenland
  [
    [-55, 60],
    [-43, 60],
    [-20, 70],
    [-18, 78],
    [-30, 82],
    [-60, 80],
    [-70, 77],
    [-56, 70],
  ],
  // South America
  [
    [-80, 8],
    [-75, 11],
    [-62, 11],
    [-50, 1],
    [-35, -5],
    [-39, -15],
    [-48, -26],
    [-58, -35],
    [-65, -42],
    [-68, -52],
    [-72, -50],
    [-74, -40],
    [-71, -30],
    [-70, -18],
    [-76, -14],
    [-81, -5],
    [-80, 1],
  ],
  // Eurasia
  [
    [-10, 36],
    [-9, 43],
    [-1, 46],
    [-5, 48],
    [2, 51],
    [8, 54],
    [8, 57],
    [5, 59],
    [5, 62],
    [14, 67],
    [22, 71],
    [30, 71],
    [40, 68],
    [45, 68],
    [60, 70],
    [70, 73],
    [80, 73],
    [100, 78],
    [113, 74],
    [130, 71],
    [150, 71],
    [170, 70],
    [180, 68],
    [180, 65],
    [170, 60],
    [160, 60],
    [163, 55],
    [156, 51],
    [142, 59],
    [137, 54],
    [140, 48],
    [132, 43],
    [127, 39],
    [126, 35],
    [121, 40],
    [119, 37],
    [121, 32],
    [122, 30],
    [119, 25],
    [110, 21],
    [108, 18],
    [106, 10],
    [104, 9],
    [100, 13],
    [101, 3],
    [104, 1],
    [98, 8],
    [97, 17],
    [93, 21],
    [90, 22],
    [87, 21],
    [80, 15],
    [77, 8],
    [73, 16],
    [72, 21],
    [67, 25],
    [58, 23],
    [52, 16],
    [45, 13],
    [43, 13],
    [39, 20],
    [35, 28],
    [34, 31],
    [35, 36],
    [27, 37],
    [26, 40],
    [23, 40],
    [20, 40],
    [16, 38],
    [12, 42],
    [9, 44],
    [3, 43],
    [-1, 37],
    [-5, 36],
  ],
  // Great Britain
  [
    [-5, 50],
    [1, 51],
    [2, 53],
    [-2, 57],
    [-4, 59],
    [-6, 57],
    [-3, 54],
    [-5, 52],
  ],
  // Africa
  [
    [-17, 21],
    [-17, 15],
    [-12, 7],
    [-8, 4],
    [5, 5],
    [9, 4],
    [10, -2],
    [13, -12],
    [12, -18],
    [15, -27],
    [18, -34],
    [25, -34],
    [33, -27],
    [35, -22],
    [40, -15],
    [40, -5],
    [43, 0],
    [51, 11],
    [44, 11],
    [43, 12],
    [39, 16],
    [35, 24],
    [33, 31],
    [20, 32],
    [10, 34],
    [10, 37],
    [0, 36],
    [-6, 36],
    [-10, 30],
    [-14, 27],
  ],
  // Madagascar
  [
    [44, -25],
    [47, -25],
    [50, -15],
    [49, -12],
    [44, -17],
  ],
  // Japan
  [
    [130, 31],
    [135, 34],
    [140, 35],
    [142, 40],
    [141, 45],
    [144, 43],
    [140, 41],
    [137, 37],
    [131, 34],
  ],
  // Borneo, Sumatra, New Guinea
  [
    [109, 1],
    [118, 7],
    [119, 0],
    [116, -4],
    [110, -3],
  ],
  [
    [95, 5],
    [106, -6],
    [102, -4],
    [98, 2],
  ],
  [
    [131, -1],
    [141, -3],
    [150, -10],
    [141, -9],
    [137, -5],
  ],
  // Australia
  [
    [114, -22],
    [114, -34],
    [118, -35],
    [124, -34],
    [132, -32],
    [138, -35],
    [141, -38],
    [147, -39],
    [150, -37],
    [153, -28],
    [153, -25],
    [146, -19],
    [142, -11],
    [141, -16],
    [136, -12],
    [131, -11],
    [125, -14],
    [122, -18],
  ],
];

const WIDTH = 1000;
const NORTH = 82;
const SOUTH = -58;
const HEIGHT = Math.round(((NORTH - SOUTH) / 360) * WIDTH);

function project([lon, lat]: readonly [number, number]): [number, number] {
  return [((lon + 180) / 360) * WIDTH, ((NORTH - lat) / (NORTH - SOUTH)) * HEIGHT];
}

const LAND_PATH = LAND.map(
  (shape) =>
    `M${shape
      .map((p) =>
        project(p)
          .map((n) => n.toFixed(1))
          .join(' '),
      )
      .join('L')}Z`,
).join('');

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
