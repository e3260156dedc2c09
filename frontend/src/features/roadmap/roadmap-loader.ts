import type { LoaderFunctionArgs } from 'react-router';
import { findRoadmapItem } from '@/features/roadmap/roadmap-items';

export interface RoadmapData {
  /** a sub-path that names no roadmap item; the page shows the whole roadmap with a notice about it */
  readonly missing: string | undefined;
}

/** /roadmap/<item> shows one item; an unknown item shows the roadmap with a notice (not the 404 page). */
export function roadmapLoader({ params }: LoaderFunctionArgs): RoadmapData {
  const splat = (params['*'] ?? '').replace(/\/+$/, '');
  return { missing: splat !== '' && !findRoadmapItem(splat) ? splat : undefined };
}
