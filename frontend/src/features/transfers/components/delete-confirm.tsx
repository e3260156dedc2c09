import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** "Delete this transfer?" as its own modal dialog over the TransferModal (Escape or Cancel keeps it). */
export function DeleteConfirm({ onConfirm, onCancel, busy }: { onConfirm(): void; onCancel(): void; busy: boolean }) {
  const { t } = useTranslation('transfers');
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const ids = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    element.showModal();
    // Cancel takes the focus once the dialog is open: React's autoFocus focuses at
    // mount, while the dialog is still closed, and writes no attribute for showModal() to honour.
    cancelButton.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="tr-confirm"
      role="alertdialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-body`}
      onClose={(event) => {
        // Keep the TransferModal open: this close is the confirmation's own.
        event.stopPropagation();
        onCancel();
      }}
      data-testid="delete-confirm"
    >
      <h3 id={`${ids}-title`}>{t('delete.title')}</h3>
      <p id={`${ids}-body`}>{t('delete.body')}</p>
      <div className="tr-panel-buttons">
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => dialog.current?.close()}
          disabled={busy}
          ref={cancelButton}
        >
          {t('modal.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary btn-sm tr-danger-solid"
          onClick={onConfirm}
          disabled={busy}
          data-testid="delete-confirm-yes"
        >
          {busy ? t('modal.working') : t('delete.confirm')}
        </button>
      </div>
    </dialog>
  );
}
