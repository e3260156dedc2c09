/** The requester's two screens, one chunk: /dash/requests and /dash/requests/:slug. */
export { RequestsPage } from './components/requests-page';
export { RequestDetailPage } from './components/request-detail-page';
