/**
 * Every file request screen as the routes load it. The entry chunk imports only this small
 * module (its preload list is one file, not the screens' chunks and CSS, which every first load
 * would otherwise carry); it fetches the screen asked for. The two dashboard screens share one
 * chunk; the public page (/r/{id}) has its own.
 */
import { importWithRetry } from '@/lib/import-with-retry';

export function loadPublicRequestPage() {
  return importWithRetry(() => import('./components/public-request-page')).then((m) => ({
    Component: m.PublicRequestPage,
  }));
}

function dashScreens() {
  return importWithRetry(() => import('./dash-screens'));
}

export function loadRequestsPage() {
  return dashScreens().then((m) => ({ Component: m.RequestsPage }));
}

export function loadRequestDetailPage() {
  return dashScreens().then((m) => ({ Component: m.RequestDetailPage }));
}
