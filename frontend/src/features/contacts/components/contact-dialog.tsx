import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal <dialog> in the dashboard's style: showModal traps the focus, Escape and a backdrop
 * click close it, and the browser returns the focus to where it was (the page moves it on).
 */
export function ContactDialog({
  title,
  testId,
  alert,
  onDismiss,
  children,
}: {
  title: string;
  testId: string;
  alert?: boolean;
  onDismiss(): void;
  children(ids: { title: string; body: string }): ReactNode;
}) {
  const { t } = useTranslation('contacts');
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = ref.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dash-modal"
      aria-labelledby={`${id}-title`}
      {...(alert ? { role: 'alertdialog', 'aria-describedby': `${id}-body` } : {})}
      onClose={onDismiss}
      onClick={(event) => {
        if (event.target === event.currentTarget) ref.current?.close();
      }}
      data-testid={testId}
    >
      <div className="dash-modal-body">
        <button
          type="button"
          className="dash-modal-close"
          aria-label={t('dialog.close')}
          onClick={() => ref.current?.close()}
        >
          <span aria-hidden="true">×</span>
        </button>
        <h2 id={`${id}-title`}>{title}</h2>
        {children({ title: `${id}-title`, body: `${id}-body` })}
      </div>
    </dialog>
  );
}
