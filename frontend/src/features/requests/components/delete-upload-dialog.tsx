import { useEffect, useId, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestUpload } from '@domain/requests-api';

interface DeleteUploadDialogProps {
  readonly upload: RequestUpload;
  /** the page closes it once the delete has answered */
  readonly dialogRef: RefObject<HTMLDialogElement | null>;
  readonly deleting: boolean;
  onConfirm(): void;
  /** closed by Cancel, Escape or the page: the focus goes back */
  onClosed(): void;
}

/** "Delete this upload?" as a modal dialog, Cancel focused. */
export function DeleteUploadDialog({ upload, dialogRef, deleting, onConfirm, onClosed }: DeleteUploadDialogProps) {
  const { t } = useTranslation('requests');
  const ids = useId();
  const cancelButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialogRef.current;
    if (!element || element.open) return;
    element.showModal();
    // Cancel takes the focus once the dialog is open: React's autoFocus focuses at
    // mount, while the dialog is still closed, and writes no attribute for showModal() to honour.
    cancelButton.current?.focus();
  }, [upload, dialogRef]);

  return (
    <dialog
      ref={dialogRef}
      className="dash-modal"
      aria-labelledby={`${ids}-confirm`}
      aria-describedby={`${ids}-confirm-body`}
      onClose={onClosed}
      data-testid="request-delete-dialog"
    >
      <div className="dash-modal-body">
        <h2 id={`${ids}-confirm`}>{t('detail.confirmTitle')}</h2>
        <p id={`${ids}-confirm-body`}>
          {t('detail.confirmBody', { name: upload.senderName, count: upload.fileCount })}
        </p>
        <div className="rq-form-actions">
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => dialogRef.current?.close()}
            ref={cancelButton}
            data-testid="request-delete-cancel"
          >
            {t('detail.confirmNo')}
          </button>
          <button
            type="button"
            className="btn btn-primary tr-danger-solid"
            onClick={onConfirm}
            disabled={deleting}
            data-testid="request-delete-confirm"
          >
            {deleting ? t('detail.deleting') : t('detail.confirmYes')}
          </button>
        </div>
      </div>
    </dialog>
  );
}
