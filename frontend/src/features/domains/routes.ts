/** The /dash/account/domain, loaded on demand with its `domains` catalogue (app/dash-routes.tsx). */
import { importWithRetry } from '@/lib/import-with-retry';

export async function domainSettings() {
  const m = await importWithRetry(() => import('./components/domain-settings-page'));
  return { Component: m.DomainSettingsPage };
}
