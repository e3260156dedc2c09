/** Issue 17's /dash/account/api-keys, loaded on demand with its `apikeys` catalogue (features/dashboard/routes.tsx). */
import { importWithRetry } from '@/lib/import-with-retry';

export async function apiKeysPage() {
  const m = await importWithRetry(() => import('./components/api-keys-page'));
  return { Component: m.ApiKeysPage };
}
