// First: no schema may be created before Zod is told not to probe eval (CSP).
import '@/lib/zod-jitless';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { createAppRouter } from '@/app/router';
import { routes } from '@/app/routes';
import { initI18n } from '@/i18n/i18n';
import { preloadRecovery } from '@/lib/import-with-retry';
import '@/styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Render once the visitor's language is loaded, so the first paint is already translated.
const i18n = await initI18n();
const router = createAppRouter();

createRoot(container).render(
  <AppProviders i18n={i18n} routes={routes}>
    <RouterProvider router={router} />
  </AppProviders>,
);

// issue 16: the failure paths (chunk recovery, the API's retry rules) load at idle time.
preloadRecovery();
