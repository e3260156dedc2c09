// First: no schema may be created before Zod is told not to probe eval (CSP).
import '@/lib/zod-jitless';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { createAppRouter } from '@/app/router';
import { routes } from '@/app/routes';
import { initI18n } from '@/i18n/i18n';
import { toLanguage } from '@/i18n/languages';
import { preloadRecovery } from '@/lib/import-with-retry';
import '@/styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Render once the visitor's language is loaded, so the first paint is already translated.
const i18n = await initI18n();
const router = createAppRouter();
const app = (
  <AppProviders i18n={i18n} routes={routes}>
    <RouterProvider router={router} />
  </AppProviders>
);

/**
 * A page the build prerendered (`data-prerendered="<page>:<lang>"`, src/prerender.tsx) is
 * already on screen. Once the router has its route's module and data, the first render
 * matches it and hydrates it, without repainting. When it would not match (another language
 * stored in this browser, a redirect such as a signed-in visitor's home going to the
 * dashboard) the app renders afresh over it, as for index.html. A shell (`data-shell`: the
 * frame around a loading state) stays until the screen's data is there, then the screen is
 * rendered over it, so the frame is never replaced by the bare loading state.
 */
const prerendered = container.dataset.prerendered?.split(':')[1];
if (prerendered) {
  const path = location.pathname;
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  const matches =
    container.dataset.shell === undefined &&
    prerendered === toLanguage(i18n.resolvedLanguage) &&
    router.state.location.pathname === path &&
    !router.state.errors;
  // As a transition the first render yields to the browser every few milliseconds instead of
  // holding the main thread for the whole tree (the page is on screen already).
  if (matches) {
    startTransition(() => void hydrateRoot(container, app));
    // Files picked in the prerendered quick send before this point (the boot script kept their
    // inputs): their change event again, now that React listens; React hydrates at once for it.
    const early = (window as { sendbridgeEarlyChanges?: HTMLInputElement[] }).sendbridgeEarlyChanges ?? [];
    for (const input of early.splice(0))
      if (input.isConnected) input.dispatchEvent(new Event('change', { bubbles: true }));
  } else startTransition(() => createRoot(container).render(app));
} else {
  createRoot(container).render(app);
}

// the failure paths (chunk recovery, the API's retry rules) load at idle time.
preloadRecovery();
