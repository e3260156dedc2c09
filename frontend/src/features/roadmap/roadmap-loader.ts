import { replace, type LoaderFunctionArgs } from 'react-router';
import { paths } from '@/app/paths';
import { findRoadmapItem } from '@/features/roadmap/roadmap-items';

/** /roadmap/<item> shows one item; an unknown item is a missing page. */
export function roadmapLoader({ params, request }: LoaderFunctionArgs) {
  const splat = (params['*'] ?? '').replace(/\/+$/, '');
  if (splat !== '' && !findRoadmapItem(splat)) {
    const url = new URL(request.url);
    return replace(paths.notFound(url.pathname + url.search));
  }
  return null;
}
