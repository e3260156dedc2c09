import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadLimitsView } from '@domain/dashboard-api';
import { MAX_DOWNLOAD_LIMIT, MIN_DOWNLOAD_LIMIT } from '@domain/delivery-events';
import { changeDownloadLimit, fetchDownloadLimits } from '../api/transfer-modal-api';
import { PanelForm, type PanelProps } from './panel-form';

const EVERYONE = '';

/**
 * The download limit (decision 0077): whole downloads, 1 to 100, of the transfer or of one of
 * its recipients; the current limits with their use above the form.
 */
export function DownloadLimitPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t } = useTranslation('transfers');
  const inputId = useId();
  const whoId = useId();
  const [limits, setLimits] = useState<DownloadLimitsView | null>(null);
  const [who, setWho] = useState(EVERYONE);
  const [typed, setTyped] = useState('');
  useEffect(() => {
    let live = true;
    fetchDownloadLimits(detail.slug).then(
      (v) => live && setLimits(v),
      () => live && setLimits({ recipients: [] }),
    );
    return () => {
      live = false;
    };
  }, [detail.slug]);

  const value = Number(typed);
  const valid = /^\d+$/u.test(typed.trim()) && value >= MIN_DOWNLOAD_LIMIT && value <= MAX_DOWNLOAD_LIMIT;
  const current = who === EVERYONE ? limits?.transfer : limits?.recipients.find((r) => r.recipient === who);
  const save = (limit: number | null) =>
    void run(async () => {
      setLimits(await changeDownloadLimit(detail.slug, { limit, ...(who === EVERYONE ? {} : { recipient: who }) }));
      return limit === null ? t('limit.removed') : t('limit.saved');
    });

  return (
    <PanelForm
      title={t('limit.title')}
      submit={t('limit.save')}
      busy={busy}
      canSubmit={valid}
      onCancel={onCancel}
      onSubmit={() => save(value)}
    >
      <p className="muted">{t('limit.lead')}</p>
      <ul className="tr-limits" data-testid="transfer-limits">
        <li>
          {limits?.transfer
            ? t('limit.useAll', { used: limits.transfer.used, limit: limits.transfer.limit })
            : t('limit.none')}
        </li>
        {limits?.recipients.map((r) => (
          <li key={r.recipient}>{t('limit.useOne', { who: r.recipient, used: r.used, limit: r.limit })}</li>
        ))}
      </ul>
      {detail.recipientsDetail.length > 0 && (
        <div className="tr-field">
          <label className="tr-label" htmlFor={whoId}>
            {t('limit.whoLabel')}
          </label>
          <select
            id={whoId}
            className="field-input"
            value={who}
            onChange={(e) => setWho(e.target.value)}
            data-testid="transfer-limit-who"
          >
            <option value={EVERYONE}>{t('limit.everyone')}</option>
            {detail.recipientsDetail.map((r) => (
              <option key={r.email} value={r.email}>
                {r.email}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="tr-field">
        <label className="tr-label" htmlFor={inputId}>
          {t('limit.label')}
        </label>
        <input
          id={inputId}
          className="field-input"
          type="number"
          inputMode="numeric"
          min={MIN_DOWNLOAD_LIMIT}
          max={MAX_DOWNLOAD_LIMIT}
          step={1}
          value={typed}
          aria-invalid={typed !== '' && !valid}
          aria-describedby={`${inputId}-hint`}
          onChange={(e) => setTyped(e.target.value)}
          data-testid="transfer-limit-input"
        />
        <p id={`${inputId}-hint`} className={typed !== '' && !valid ? 'tr-field-error' : 'muted tr-hint'}>
          {t('limit.hint')}
        </p>
      </div>
      {current && (
        <button
          type="button"
          className="btn btn-ghost btn-sm tr-danger"
          disabled={busy}
          onClick={() => save(null)}
          data-testid="transfer-limit-remove"
        >
          {t('limit.remove')}
        </button>
      )}
    </PanelForm>
  );
}
