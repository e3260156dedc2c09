/**
 * The /dash screens, loaded on demand through this one module so the app's entry chunk
 * carries only one small loader for the two (app/dash-routes.tsx).
 */
import { importWithRetry } from '@/lib/import-with-retry';

/** /dash/data-residency: the Region picker (its `settings` catalogue comes with the dashboard layout). */
export async function dataResidency() {
  const m = await importWithRetry(() => import('./components/data-residency-page'));
  return { Component: m.DataResidencyPage };
}

/** /dash/settings */
export async function settings() {
  const m = await importWithRetry(() => import('./components/settings-page'));
  return { Component: m.SettingsPage };
}
