/**
 * The /developers, loaded on demand (app/routes.tsx) through this small module with its
 * `api` catalogue, so the entry chunk names one file for the screen.
 */
import { i18n } from '@/i18n/i18n';
import { importWithRetry } from '@/lib/import-with-retry';

export async function developersPage() {
  const [m] = await Promise.all([
    importWithRetry(() => import('./components/developers-page')),
    i18n.loadNamespaces('api'),
  ]);
  return { Component: m.DevelopersPage };
}
