import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import type { TransferDetail } from '@domain/dashboard-api';
import { SEND_PASSWORD_MIN_LENGTH } from '@domain/validation';
import { CustomExpiryInput } from '@/shared/send-form/components/custom-expiry-input';
import { PasswordInput } from '@/shared/send-form/components/password-input';
import { expiryKey } from '@/shared/send-form/labels';
import { expiryOptions } from '@/shared/send-form/send-state';
import { errorTextOf } from '@/i18n/error-keys';
import { importWithRetry } from '@/lib/import-with-retry';
import { useSession } from '@/lib/session/session-provider';
import { changeExpiry, changePassword, deleteTransfer, remindRecipients, resendTransfer } from '../api/transfers-api';
import { TRANSFER_ACTIONS, availableActions, expiryChoiceProblem, type TransferAction } from '../action-rules';
import { formatDateTime, notDownloaded } from '../transfer-format';

const AddFilesPanel = lazy(() => importWithRetry(() => import('./add-files-panel')).then((m) => ({ default: m.AddFilesPanel })));
const ForwardPanel = lazy(() => importWithRetry(() => import('./forward-panel')).then((m) => ({ default: m.ForwardPanel })));

export interface ActionNotice {
  readonly kind: 'success' | 'error';
  readonly text: string;
}

/** What a panel gets: the transfer, and how to report the outcome of its call. */
export interface PanelProps {
  readonly detail: TransferDetail;
  /** runs the call; success: the message, the detail reloads and lists refresh; failure: the code's text */
  run(call: () => Promise<string>, options?: { keepOpen?: boolean }): Promise<boolean>;
  readonly busy: boolean;
  onCancel(): void;
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
 * password, delete. One panel open at a time; every outcome is announced in the live region.
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
      <div className={`tr-live${notice ? ` tr-notice tr-notice-${notice.kind}` : ''}`} role={notice?.kind === 'error' ? 'alert' : 'status'} data-testid="action-notice">
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
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy || !canSubmit} data-testid="panel-submit">
          {busy ? t('modal.working') : submit}
        </button>
      </div>
    </form>
  );
}

function ResendPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t } = useTranslation('transfers');
  const all = detail.recipientsDetail.map((r) => r.email);
  const [chosen, setChosen] = useState<readonly string[]>(all);
  const toggle = (email: string) => setChosen((c) => (c.includes(email) ? c.filter((e) => e !== email) : [...c, email]));
  return (
    <PanelForm
      title={t('resend.title')}
      submit={t('resend.submit')}
      busy={busy}
      canSubmit={chosen.length > 0}
      onCancel={onCancel}
      onSubmit={() =>
        void run(async () => {
          const everyone = chosen.length === all.length;
          const { sent } = await resendTransfer({ slug: detail.slug, ...(everyone ? {} : { emails: [...chosen] }) });
          return t('resend.done', { count: sent.length });
        })
      }
    >
      <p className="muted">{t('resend.lead')}</p>
      <fieldset className="tr-fieldset">
        <legend className="tr-label">{t('resend.who')}</legend>
        <label className="tr-choice">
          <input type="checkbox" checked={chosen.length === all.length} onChange={(e) => setChosen(e.target.checked ? all : [])} />
          <span>{t('resend.all')}</span>
        </label>
        <ul className="tr-choices">
          {all.map((email) => (
            <li key={email}>
              <label className="tr-choice">
                <input type="checkbox" checked={chosen.includes(email)} onChange={() => toggle(email)} />
                <span className="tr-break">{email}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {chosen.length === 0 && <p className="tr-field-error">{t('resend.noneChosen')}</p>}
    </PanelForm>
  );
}

function RemindPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t } = useTranslation('transfers');
  const waiting = notDownloaded(detail.recipientsDetail);
  return (
    <PanelForm
      title={t('remind.title')}
      submit={t('remind.submit')}
      busy={busy}
      canSubmit={waiting.length > 0}
      onCancel={onCancel}
      onSubmit={() =>
        void run(async () => {
          const { sent } = await remindRecipients(detail.slug);
          return t('remind.done', { count: sent.length });
        })
      }
    >
      <p>{t('remind.lead', { count: waiting.length })}</p>
      <ul className="tr-plain-list">
        {waiting.map((email) => (
          <li key={email} className="tr-break">
            {email}
          </li>
        ))}
      </ul>
    </PanelForm>
  );
}

function ExpiryPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t, i18n } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user } = useSession();
  const role = user?.role ?? 'free';
  const name = useId();
  const dateId = useId();
  const options = expiryOptions(role);
  const [seconds, setSeconds] = useState<number | null>(null);
  const [custom, setCustom] = useState<number | null>(null);
  const [now] = useState(() => Date.now());
  const problem = expiryChoiceProblem(seconds, custom, Date.now());
  return (
    <PanelForm
      title={t('expiry.title')}
      submit={t('expiry.submit')}
      busy={busy}
      canSubmit={seconds !== null && problem === null}
      onCancel={onCancel}
      onSubmit={() =>
        void run(async () => {
          const result = await changeExpiry({
            slug: detail.slug,
            expirySeconds: seconds!,
            ...(seconds === CUSTOM_DATE_MARKER && custom !== null ? { customExpiryDate: custom } : {}),
          });
          return t('expiry.done', { date: formatDateTime(result.expiryDate, lng) });
        })
      }
    >
      <p className="muted">
        {t('expiry.current', { date: formatDateTime(detail.expiryDate, lng) })}
      </p>
      <div role="radiogroup" aria-label={tApp('send.expiry.legend')} className="tr-choices-grid">
        {options.map((option) => (
          <label key={option.seconds} className={`tr-choice${option.allowed ? '' : ' tr-choice-locked'}`}>
            <input
              type="radio"
              name={name}
              value={option.seconds}
              checked={seconds === option.seconds}
              disabled={!option.allowed}
              onChange={() => {
                setSeconds(option.seconds);
                // Choosing a preset clears a custom date (spec §4).
                if (option.seconds !== CUSTOM_DATE_MARKER) setCustom(null);
              }}
            />
            <span>{tApp(`send.expiry.${expiryKey(option.seconds)}`)}</span>
          </label>
        ))}
      </div>
      {seconds === CUSTOM_DATE_MARKER && (
        <div className="tr-field">
          <label className="tr-label" htmlFor={dateId}>
            {tApp('send.expiry.dateLabel')}
          </label>
          <CustomExpiryInput id={dateId} className="field-input" value={custom} now={now} invalid={!!problem} onChange={setCustom} testId="expiry-date" />
        </div>
      )}
      {problem && custom !== null && <p className="tr-field-error">{tApp(`send.errors.${problem}`)}</p>}
      {options.some((o) => !o.allowed) && <p className="muted tr-hint">{tApp('send.expiry.upgradeHint')}</p>}
    </PanelForm>
  );
}

function PasswordPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const inputId = useId();
  const [password, setPassword] = useState('');
  const tooShort = password.length > 0 && password.length < SEND_PASSWORD_MIN_LENGTH;
  return (
    <PanelForm
      title={t('password.title')}
      submit={t('password.save')}
      busy={busy}
      canSubmit={password.length >= SEND_PASSWORD_MIN_LENGTH}
      onCancel={onCancel}
      onSubmit={() =>
        void run(async () => {
          await changePassword({ slug: detail.slug, password });
          return t('password.saved');
        })
      }
    >
      <p className="muted">{detail.hasPassword ? t('password.leadOn') : t('password.leadOff')}</p>
      <div className="tr-field">
        <label className="tr-label" htmlFor={inputId}>
          {t('password.label')}
        </label>
        <PasswordInput
          id={inputId}
          rowClassName="tr-copy-row"
          inputClassName="field-input"
          toggleClassName="btn btn-ghost btn-sm"
          value={password}
          invalid={tooShort}
          onChange={setPassword}
          testId="transfer-password-input"
        />
        <p id={`${inputId}-hint`} className={tooShort ? 'tr-field-error' : 'muted tr-hint'}>
          {tooShort ? tApp('send.errors.passwordTooShort') : t('password.hint')}
        </p>
      </div>
      {detail.hasPassword && (
        <button
          type="button"
          className="btn btn-ghost btn-sm tr-danger"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await changePassword({ slug: detail.slug, password: null });
              return t('password.removed');
            })
          }
          data-testid="transfer-password-remove"
        >
          {t('password.remove')}
        </button>
      )}
    </PanelForm>
  );
}

/** "Delete this transfer?" as its own modal dialog over the TransferModal (Escape or Cancel keeps it). */
function DeleteConfirm({ onConfirm, onCancel, busy }: { onConfirm(): void; onCancel(): void; busy: boolean }) {
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
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => dialog.current?.close()} disabled={busy} ref={cancelButton}>
          {t('modal.cancel')}
        </button>
        <button type="button" className="btn btn-primary btn-sm tr-danger-solid" onClick={onConfirm} disabled={busy} data-testid="delete-confirm-yes">
          {busy ? t('modal.working') : t('delete.confirm')}
        </button>
      </div>
    </dialog>
  );
}
