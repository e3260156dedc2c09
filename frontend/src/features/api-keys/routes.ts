/**
 * The /dash/account/api-keys, loaded on demand (app/dash-routes.tsx) through this
 * small module with its `api` catalogue (the key errors' texts are in `pages`, which the
 * dashboard's layout loads).
 */
import { i18n } from '@/i18n/i18n';
import { importWithRetry } from '@/lib/import-with-retry';

export async function apiKeysPage() {
  const [m] = await Promise.all([
    importWithRetry(() => import('./components/api-keys-page')),
    i18n.loadNamespaces('api'),
  ]);
  return { Component: m.ApiKeysPage };
}
