import { useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferDetail } from '@domain/dashboard-api';

/** What a panel gets: the transfer, and how to report the outcome of its call. */
export interface PanelProps {
  readonly detail: TransferDetail;
  /** runs the call; success: the message, the detail reloads and lists refresh; failure: the code's text */
  run(call: () => Promise<string>, options?: { keepOpen?: boolean }): Promise<boolean>;
  readonly busy: boolean;
  onCancel(): void;
}
/** A panel's form: heading, body, and the submit and cancel buttons. */
export function PanelForm({
  title,
  children,
  submit,
  busy,
  canSubmit = true,
  onSubmit,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  submit: string;
  busy: boolean;
  canSubmit?: boolean;
  onSubmit(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('transfers');
  const id = useId();
  return (
    <form
      aria-labelledby={id}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        if (!busy && canSubmit) onSubmit();
      }}
      noValidate
    >
      <h4 id={id} className="tr-panel-title">
        {title}
      </h4>
      {children}
      <div className="tr-panel-buttons">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel} disabled={busy}>
          {t('modal.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-primary btn-sm"
          disabled={busy || !canSubmit}
          data-testid="panel-submit"
        >
          {busy ? t('modal.working') : submit}
        </button>
      </div>
    </form>
  );
}
