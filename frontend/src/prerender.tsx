// Rendered in Node by the build (frontend/prerender-plugin.ts), never shipped to the browser.
import '@/lib/zod-jitless';
import { prerender } from 'react-dom/static';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/routes';
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
  if (router.state.location.pathname !== pathname) throw new Error(`prerender: ${pathname} redirected to ${router.state.location.pathname}`);
  if (router.state.errors) throw new Error(`prerender: ${pathname} failed: ${JSON.stringify(router.state.errors)}`);
  const { prelude } = await prerender(
    <AppProviders i18n={i18n} routes={routes}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const html = await new Response(prelude).text();
  router.dispose();
  const title = i18n.t(titleKey as never) as string;
  return { html, title: title ? `${title} · SendBridge` : 'SendBridge' };
}
