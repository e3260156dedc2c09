/**
 * The /dash screens, loaded on demand through this one module so the app's entry chunk
 * carries only one small loader for them (app/dash-routes.tsx).
 */
import { importWithRetry } from '@/lib/import-with-retry';

/** /dash/account/billing */
export async function billingPage() {
  const m = await importWithRetry(() => import('./components/billing-page'));
  return { Component: m.BillingPage };
}

/** /dash/account/billing/invoices/{id}: the simulator's hosted invoice, printable */
export async function invoicePage() {
  const m = await importWithRetry(() => import('./components/invoice-page'));
  return { Component: m.InvoicePage };
}
