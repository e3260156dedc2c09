/**
 * The requester's screens as the dashboard's routes load them: one dynamic import from the
 * entry chunk for both (/dash/requests and /dash/requests/:slug), so the entry's preload table
 * grows by one.
 */
export { RequestsPage } from './components/requests-page';
export { RequestDetailPage } from './components/request-detail-page';
