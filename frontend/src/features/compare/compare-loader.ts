import { replace, type LoaderFunctionArgs } from 'react-router';
import { isCompareSlug, paths } from '@/app/paths';

export function compareLoader({ params, request }: LoaderFunctionArgs) {
  if (!isCompareSlug(params.slug)) {
    const url = new URL(request.url);
    return replace(paths.notFound(url.pathname + url.search));
  }
  return null;
}
