import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal confirmation (<dialog>: showModal traps the focus, Escape and a backdrop click close
 * it, the browser returns the focus). `busy` keeps it open while the action runs.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  busy,
  error,
  testId,
  onConfirm,
  onClose,
  children,
}: {
  readonly title: string;
  readonly confirmLabel: string;
  readonly busy: boolean;
  readonly error: string | null;
  readonly testId: string;
  onConfirm(): void;
  onClose(): void;
  readonly children: ReactNode;
}) {
  const { t } = useTranslation('billing');
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = ref.current;
    if (element && !element.open) element.showModal();
  }, []);
  const close = () => {
    if (!busy) ref.current?.close();
  };
  return (
    <dialog
      ref={ref}
      className="dash-modal"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={onClose}
      onCancel={(event) => {
        if (busy) event.preventDefault();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
      data-testid={testId}
    >
      <div className="dash-modal-body">
        <h2 id={`${id}-title`}>{title}</h2>
        <div id={`${id}-body`}>{children}</div>
        <p className="bl-alert" role="alert">
          {error ?? ''}
        </p>
        <ConfirmActions
          busy={busy}
          confirmLabel={confirmLabel}
          onConfirm={onConfirm}
          confirmTestId={`${testId}-confirm`}
          backLabel={t('dialog.back')}
          onBack={close}
          backTestId={`${testId}-dismiss`}
        />
      </div>
    </dialog>
  );
}

/** A confirmation's two buttons: the action (busy while it runs) and the way back, both off meanwhile. */
export function ConfirmActions({
  busy,
  confirmLabel,
  onConfirm,
  confirmTestId,
  backLabel,
  onBack,
  backTestId,
}: {
  busy: boolean;
  confirmLabel: string;
  onConfirm: () => void;
  confirmTestId: string;
  backLabel: string;
  onBack: () => void;
  backTestId?: string;
}) {
  return (
    <div className="bl-actions">
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy}
        aria-busy={busy}
        onClick={onConfirm}
        data-testid={confirmTestId}
      >
        {confirmLabel}
      </button>
      <button type="button" className="btn btn-ghost" disabled={busy} onClick={onBack} data-testid={backTestId}>
        {backLabel}
      </button>
    </div>
  );
}
