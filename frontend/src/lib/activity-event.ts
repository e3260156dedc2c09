/**
 * "Something new happened to the user's transfers": the bell's poll says so when it brings a
 * notification it had not seen (a download, a review comment or decision), and the screens that
 * show those transfers (the list, the TransferModal's review) fetch again. A window event rather
 * than an import, so the notifications and transfers features stay apart.
 */
const ACTIVITY_EVENT = 'sendbridge:transfer-activity';

export interface TransferActivity {
  /** the transfers the new notifications are about */
  readonly slugs: readonly string[];
}

export function announceTransferActivity(activity: TransferActivity): void {
  window.dispatchEvent(new CustomEvent<TransferActivity>(ACTIVITY_EVENT, { detail: activity }));
}

/** Returns the unsubscribe function. */
export function onTransferActivity(listener: (activity: TransferActivity) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<TransferActivity>).detail);
  window.addEventListener(ACTIVITY_EVENT, handler);
  return () => window.removeEventListener(ACTIVITY_EVENT, handler);
}
