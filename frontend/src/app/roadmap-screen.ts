import { importWithRetry } from '@/lib/import-with-retry';

/** The roadmap's screen and loader: on its public address and inside the dashboard layout (/dash/roadmap/*). */
export function roadmapScreen() {
  return Promise.all([
    importWithRetry(() => import('@/features/roadmap/components/roadmap-page')),
    importWithRetry(() => import('@/features/roadmap/roadmap-loader')),
  ]).then(([page, loader]) => ({ Component: page.RoadmapPage, loader: loader.roadmapLoader }));
}
