// Rendered in Node by the build (frontend/prerender-plugin.ts), never shipped to the browser.
import '@/lib/zod-jitless';
import { prerender } from 'react-dom/static';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/routes';
import { Layout } from '@/components/layout';
import { PageLoading } from '@/components/page-loading';
import { initI18nIn } from '@/i18n/i18n';
import type { Language } from '@/i18n/languages';

export interface PrerenderedPage {
  /** the markup of #root */
  readonly html: string;
  /** the screen's document title, as usePageTitle sets it in the browser */
  readonly title: string;
}

/**
 * One public screen as a first visit in `language` sees it, before any session or stored
 * choice is known: the same providers and the same kind of data router as main.tsx (a memory
 * router here, a browser router there), so the client's first render matches this markup and
 * hydrates it. Waits for the route's lazy module, its loader and its catalogues, and for every
 * Suspense boundary. `title` is read from the screen's translated title key.
 */
export async function renderPage(pathname: string, language: Language, titleKey: string): Promise<PrerenderedPage> {
  return render(routes, pathname, language, titleKey);
}

/**
 * The frame of a screen whose content comes from the API (the download page): the app's
 * header and footer around the loading state it shows today, so they paint before any
 * JavaScript. main.tsx renders the screen over it once its data is there (no hydration: the
 * content differs). The loading state fills the screen, so the footer is below the fold and
 * does not move when the content arrives.
 */
export async function renderShell(language: Language): Promise<PrerenderedPage> {
  const shell: RouteObject[] = [
    {
      id: 'root',
      element: <Layout />,
      children: [
        {
          path: '*',
          element: (
            <div style={{ minHeight: '100vh' }}>
              <PageLoading />
            </div>
          ),
        },
      ],
    },
  ];
  return render(shell, '/', language, '');
}

async function render(
  routes: RouteObject[],
  pathname: string,
  language: Language,
  titleKey: string,
): Promise<PrerenderedPage> {
  const i18n = await initI18nIn(language);
  const router = createMemoryRouter(routes, { initialEntries: [pathname] });
  await new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
  if (router.state.location.pathname !== pathname)
    throw new Error(`prerender: ${pathname} redirected to ${router.state.location.pathname}`);
  if (router.state.errors) throw new Error(`prerender: ${pathname} failed: ${JSON.stringify(router.state.errors)}`);
  const { prelude } = await prerender(
    <AppProviders i18n={i18n} routes={routes}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const html = await new Response(prelude).text();
  router.dispose();
  const title = titleKey ? (i18n.t(titleKey as never) as string) : '';
  return { html, title: title ? `${title} · SendBridge` : 'SendBridge' };
}
