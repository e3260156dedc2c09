/** The /dash/account/webhooks, loaded on demand with its `webhooks` catalogue (app/dash-routes.tsx). */
import { importWithRetry } from '@/lib/import-with-retry';

export async function webhooksPage() {
  const m = await importWithRetry(() => import('./components/webhooks-page'));
  return { Component: m.WebhooksPage };
}
