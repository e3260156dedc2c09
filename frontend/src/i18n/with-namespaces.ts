import { i18n } from '@/i18n/i18n';
import type { LazyNamespace } from '@/i18n/namespace-names';

/**
 * Wraps a route's `lazy` so the screen's code and its lazy catalogues arrive together: the
 * screen then renders translated on its first paint, without a Suspense fallback.
 */
export function withNamespaces<T>(namespaces: readonly LazyNamespace[], load: () => Promise<T>): () => Promise<T> {
  return async () => {
    const [screen] = await Promise.all([load(), i18n.loadNamespaces([...namespaces])]);
    return screen;
  };
}
