/**
 * The branding screens (/dash/account/customize, /dash/account/powered-by), loaded on
 * demand through this one module with their `branding` catalogue (app/dash-routes.tsx).
 */
import { i18n } from '@/i18n/i18n';
import { importWithRetry } from '@/lib/import-with-retry';

export async function customize() {
  const [m] = await Promise.all([
    importWithRetry(() => import('./components/customize-page')),
    i18n.loadNamespaces('branding'),
  ]);
  return { Component: m.CustomizePage };
}

export async function poweredBy() {
  const [m] = await Promise.all([
    importWithRetry(() => import('./components/powered-by-page')),
    i18n.loadNamespaces('branding'),
  ]);
  return { Component: m.PoweredByPage };
}
