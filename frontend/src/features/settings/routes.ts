/**
 * The /dash screens, loaded on demand through this one module so the app's entry chunk
 * carries only one small loader for the three (features/dashboard/routes.tsx).
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

/** /dash/roadmap/*: the public roadmap's screen and loader inside the dashboard layout. */
export async function roadmap() {
  const [page, loader] = await Promise.all([
    importWithRetry(() => import('@/features/roadmap/components/roadmap-page')),
    importWithRetry(() => import('@/features/roadmap/roadmap-loader')),
  ]);
  return { Component: page.RoadmapPage, loader: loader.roadmapLoader };
}
