/**
 * Issue 15's branding screens (/dash/account/customize, /dash/account/powered-by), loaded on
 * demand through this one module with their `branding` catalogue (features/dashboard/routes.tsx).
 */
import { importWithRetry } from '@/lib/import-with-retry';

export async function customize() {
  const m = await importWithRetry(() => import('./components/customize-page'));
  return { Component: m.CustomizePage };
}

export async function poweredBy() {
  const m = await importWithRetry(() => import('./components/powered-by-page'));
  return { Component: m.PoweredByPage };
}
