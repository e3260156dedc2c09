import { StrictMode, Suspense, useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { RouteObject } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import type { i18n as I18n } from 'i18next';
import { ServedRoutesProvider } from '@/lib/served-routes';
import { SessionProvider } from '@/lib/session/session-provider';

/**
 * After the app's first commit: a prerendered page (#root marked `data-prerendered` and `inert`
 * by the build, so nothing can be typed into it and lost before React listens) becomes the app.
 */
function Started() {
  useEffect(() => {
    const root = document.getElementById('root');
    root?.removeAttribute('inert');
    root?.removeAttribute('data-prerendered');
  }, []);
  return null;
}

export function AppProviders({
  i18n,
  routes,
  children,
}: {
  i18n: I18n;
  routes: readonly RouteObject[];
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <SessionProvider>
          <ServedRoutesProvider routes={routes}>
            <Suspense fallback={<PageLoading />}>{children}</Suspense>
          </ServedRoutesProvider>
        </SessionProvider>
      </I18nextProvider>
      <Started />
    </StrictMode>
  );
}
