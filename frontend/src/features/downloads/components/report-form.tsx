import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/i18n/i18n';
import { ABUSE_DETAILS_MAX, ABUSE_REASONS, type AbuseReason } from '@domain/abuse-reasons';
import { reportTransfer } from '@/shared/downloads/download-api';
import { ApiError } from '@/lib/api';

/** The form's texts load with this chunk. */
export const ready = i18n.loadNamespaces('abuse');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

/** 'Report this transfer': a reason from the list, an optional email and details; sent to the operator queue. */
export function ReportForm({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation('abuse');
  const ids = useId();
  const [reason, setReason] = useState<AbuseReason>('malware');
  const [email, setEmail] = useState('');
  const [details, setDetails] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed' | 'tooMany' | 'invalidEmail'>('idle');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const address = email.trim();
    if (address && !EMAIL.test(address)) {
      setState('invalidEmail');
      return;
    }
    setState('sending');
    try {
      await reportTransfer({
        id,
        reason,
        ...(address ? { email: address } : {}),
        ...(details.trim() ? { details: details.trim() } : {}),
        lang: i18n.language,
      });
      setState('sent');
    } catch (err) {
      setState(err instanceof ApiError && err.status === 429 ? 'tooMany' : 'failed');
    }
  }

  if (state === 'sent' || state === 'tooMany') {
    return (
      <div className="download-report" role="status" data-testid="report-sent">
        <p>{t(state)}</p>
      </div>
    );
  }
  return (
    <form
      className="download-report"
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${ids}-title`}
      data-testid="report-form"
      noValidate
    >
      <h2 id={`${ids}-title`} className="download-report-title">
        {t('title')}
      </h2>
      <p className="muted">{t('intro')}</p>
      <label htmlFor={`${ids}-reason`}>{t('reasonLabel')}</label>
      <select
        id={`${ids}-reason`}
        className="input"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value as AbuseReason)}
        data-testid="report-reason"
      >
        {ABUSE_REASONS.map((r) => (
          <option key={r} value={r}>
            {t(`reasons.${r}`)}
          </option>
        ))}
      </select>
      <label htmlFor={`${ids}-email`}>{t('emailLabel')}</label>
      <input
        id={`${ids}-email`}
        className="input"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
        aria-invalid={state === 'invalidEmail' || undefined}
        aria-describedby={state === 'invalidEmail' ? `${ids}-error` : undefined}
        data-testid="report-email"
      />
      <label htmlFor={`${ids}-details`}>{t('detailsLabel')}</label>
      <textarea
        id={`${ids}-details`}
        className="input"
        rows={3}
        maxLength={ABUSE_DETAILS_MAX}
        value={details}
        onChange={(e) => setDetails(e.currentTarget.value)}
        data-testid="report-details"
      />
      <div role="alert" id={`${ids}-error`} className="download-report-error">
        {state === 'failed' || state === 'invalidEmail' ? t(state) : null}
      </div>
      <div className="download-report-actions">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
          {t('cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-primary btn-sm"
          disabled={state === 'sending'}
          data-testid="report-submit"
        >
          {t('submit')}
        </button>
      </div>
    </form>
  );
}
