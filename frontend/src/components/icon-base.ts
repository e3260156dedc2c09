import type { SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement>;

/** The outline icons share one look: a 24-unit grid drawn with a round 2px stroke in the text colour. */
export function strokeIcon(size: number) {
  return {
    width: size,
    height: size,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
  } as const;
}
