/**
 * The transfers screens as the dashboard's routes load them: one dynamic import from the
 * entry chunk for both (each import() there costs every first load its preload list), the
 * TransferModal, and with it the QR code library, in a chunk of its own on top.
 */
import { importWithRetry } from '@/lib/import-with-retry';

export { TransfersPage } from './components/transfers-page';

export function loadTransferModal() {
  return importWithRetry(() => import('./components/transfer-modal')).then((m) => ({ Component: m.TransferModal }));
}
