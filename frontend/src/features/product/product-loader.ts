import { replace, type LoaderFunctionArgs } from 'react-router';
import { isProductSlug, paths } from '@/app/paths';

export function productLoader({ params, request }: LoaderFunctionArgs) {
  if (!isProductSlug(params.slug)) {
    const url = new URL(request.url);
    return replace(paths.notFound(url.pathname + url.search));
  }
  return null;
}
