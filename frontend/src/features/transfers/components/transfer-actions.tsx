import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferDetail } from '@domain/dashboard-api';
import { errorTextOf } from '@/i18n/error-keys';
import { importWithRetry } from '@/lib/import-with-retry';
import { deleteTransfer } from '../api/transfers-api';
import { TRANSFER_ACTIONS, availableActions, type TransferAction } from '../action-rules';
import type { PanelProps } from './panel-form';
import { ResendPanel, RemindPanel } from './message-panels';
import { ExpiryPanel } from './expiry-panel';
import { PasswordPanel } from './password-panel';
import { DownloadLimitPanel } from './download-limit-panel';
import { DeleteConfirm } from './delete-confirm';

const AddFilesPanel = lazy(() =>
  importWithRetry(() => import('./add-files-panel')).then((m) => ({ default: m.AddFilesPanel })),
);
const ForwardPanel = lazy(() =>
  importWithRetry(() => import('./forward-panel')).then((m) => ({ default: m.ForwardPanel })),
);

export interface ActionNotice {
  readonly kind: 'success' | 'error';
  readonly text: string;
}

interface TransferActionsProps {
  readonly detail: TransferDetail;
  readonly notice: ActionNotice | null;
  onNotice(notice: ActionNotice | null): void;
  /** after a change: lists invalidated, the detail reloaded */
  onChanged(): Promise<void>;
  onDeleted(): void;
}

/**
 * The modal's actions (spec §2): add files, forward, resend, remind, expiry,
 * password, download limit, delete. One panel open at a time; every outcome is announced in the live region.
 */
export function TransferActions({ detail, notice, onNotice, onChanged, onDeleted }: TransferActionsProps) {
  const { t } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const ids = useId();
  const [open, setOpen] = useState<TransferAction | null>(null);
  const [busy, setBusy] = useState(false);
  const available = availableActions(detail, Date.now());

  // A reloaded transfer may no longer allow the open action (it expired meanwhile).
  useEffect(() => {
    if (open && !available.has(open)) setOpen(null);
  }, [open, available]);

  const run: PanelProps['run'] = async (call, options = {}) => {
    setBusy(true);
    onNotice(null);
    try {
      const text = await call();
      // The message comes with the changed transfer on screen, not before it.
      await onChanged();
      onNotice({ kind: 'success', text });
      if (!options.keepOpen) setOpen(null);
      return true;
    } catch (err) {
      const error = errorTextOf(err);
      onNotice({ kind: 'error', text: tApp(error.key, error.params) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const panelProps = { detail, run, busy, onCancel: () => setOpen(null) };
  return (
    <section className="tr-actions" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="sr-only">
        {t('modal.actionsLabel')}
      </h3>
      <div className="tr-action-bar">
        {TRANSFER_ACTIONS.map((action) => (
          <button
            key={action}
            type="button"
            className={`btn btn-sm ${action === 'delete' ? 'btn-ghost tr-danger' : open === action ? 'btn-primary' : 'btn-ghost'}`}
            disabled={!available.has(action) || busy}
            aria-expanded={action === 'delete' ? undefined : open === action}
            aria-controls={action === 'delete' ? undefined : `${ids}-panel`}
            onClick={() => {
              onNotice(null);
              setOpen(open === action ? null : action);
            }}
            data-testid={`action-${action}`}
          >
            {t(`modal.actions.${action}`)}
          </button>
        ))}
      </div>
      <div
        className={`tr-live${notice ? ` tr-notice tr-notice-${notice.kind}` : ''}`}
        role={notice?.kind === 'error' ? 'alert' : 'status'}
        data-testid="action-notice"
      >
        {notice?.text ?? ''}
      </div>
      <div id={`${ids}-panel`}>
        {open && open !== 'delete' && (
          <div className="tr-panel" data-testid={`panel-${open}`}>
            <Suspense fallback={<p className="muted">{t('modal.working')}</p>}>
              {open === 'addFiles' && <AddFilesPanel {...panelProps} />}
              {open === 'forward' && <ForwardPanel {...panelProps} />}
              {open === 'resend' && <ResendPanel {...panelProps} />}
              {open === 'remind' && <RemindPanel {...panelProps} />}
              {open === 'expiry' && <ExpiryPanel {...panelProps} />}
              {open === 'password' && <PasswordPanel {...panelProps} />}
              {open === 'limit' && <DownloadLimitPanel {...panelProps} />}
            </Suspense>
          </div>
        )}
      </div>
      {open === 'delete' && (
        <DeleteConfirm
          onCancel={() => setOpen(null)}
          onConfirm={async () => {
            setBusy(true);
            try {
              await deleteTransfer(detail.slug);
              onDeleted();
            } catch (err) {
              const error = errorTextOf(err);
              onNotice({ kind: 'error', text: tApp(error.key, error.params) });
              setOpen(null);
            } finally {
              setBusy(false);
            }
          }}
          busy={busy}
        />
      )}
    </section>
  );
}
