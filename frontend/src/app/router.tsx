import { createBrowserRouter } from 'react-router';
import { routes } from '@/app/routes';

/**
 * The app's router. Made once i18next is initialised (main.tsx): a data router starts loading
 * the address's routes as soon as it exists, and a route's `withNamespaces` asks i18next for its
 * catalogues, which an i18next not yet initialised answers at once without loading them.
 */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
