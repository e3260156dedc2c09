import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Cancel, then 'Cancel this transfer?' Yes / No; focus moves to No, and back to Cancel after it. */
export function UploadCancel({ onCancel }: { onCancel(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const noButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (confirming) noButton.current?.focus();
    else if (wasConfirming.current) cancelButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  if (confirming) {
    return (
      <div className="qs-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`} aria-modal="false">
        <p id={`${id}-confirm`} className="qs-confirm-text">
          {t('send.progress.confirm')}
        </p>
        <div className="qs-confirm-actions">
          <button type="button" className="btn btn-primary btn-sm" onClick={onCancel} data-testid="cancel-yes">
            {t('send.progress.yes')}
          </button>
          <button
            ref={noButton}
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setConfirming(false)}
            data-testid="cancel-no"
          >
            {t('send.progress.no')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <button
      ref={cancelButton}
      type="button"
      className="btn btn-ghost btn-sm qs-cancel"
      onClick={() => setConfirming(true)}
      data-testid="cancel-upload"
    >
      {t('send.progress.cancel')}
    </button>
  );
}
