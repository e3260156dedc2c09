import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import { paths } from '@/app/paths';
import { expiryKey } from '@/shared/send-form/labels';
import {
  expiryOptions,
  selectExpiry,
  setCustomExpiry,
  setDownloadLimit,
  type SenderContext,
} from '@/shared/send-form/send-state';
import { MAX_DOWNLOAD_LIMIT, MIN_DOWNLOAD_LIMIT } from '@domain/delivery-events';
import { CustomExpiryInput } from '@/shared/send-form/components/custom-expiry-input';
import type { TabProps } from './option-tabs';

/** The plan's expiry periods (locked ones shown with the upgrade hint), a custom date, and the download limit. */
export function ExpiryTab({
  form,
  sender,
  now,
  problem,
  fieldRef,
  onChange,
}: TabProps & { sender: SenderContext; now: number; problem?: string; fieldRef: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const name = useId();
  const dateId = useId();
  const limitId = useId();
  const limitHintId = useId();
  const options = expiryOptions(sender.role);
  const someLocked = options.some((o) => !o.allowed);
  const custom = form.expirySeconds === CUSTOM_DATE_MARKER;
  return (
    <div ref={fieldRef}>
      <div role="radiogroup" aria-label={t('send.expiry.legend')} className="qs-choices qs-choices-grid">
        {options.map((option) => (
          <label key={option.seconds} className={`qs-choice${option.allowed ? '' : ' qs-choice-locked'}`}>
            <input
              type="radio"
              name={name}
              value={option.seconds}
              checked={form.expirySeconds === option.seconds}
              disabled={!option.allowed}
              onChange={() => onChange((f) => selectExpiry(f, option.seconds, sender.role))}
            />
            <span>{t(`send.expiry.${expiryKey(option.seconds)}`)}</span>
          </label>
        ))}
      </div>
      {custom && (
        <div className="qs-field qs-date">
          <label className="qs-label" htmlFor={dateId}>
            {t('send.expiry.dateLabel')}
          </label>
          <CustomExpiryInput
            id={dateId}
            className="qs-input"
            value={form.customExpiryDate}
            now={now}
            invalid={!!problem}
            onChange={(value) => onChange((f) => setCustomExpiry(f, value))}
          />
        </div>
      )}
      <div className="qs-field">
        <label className="qs-label" htmlFor={limitId}>
          {t('send.expiry.downloadLimit')}
        </label>
        <input
          id={limitId}
          className="qs-input"
          type="number"
          inputMode="numeric"
          min={MIN_DOWNLOAD_LIMIT}
          max={MAX_DOWNLOAD_LIMIT}
          step={1}
          value={form.downloadLimit ?? ''}
          aria-describedby={limitHintId}
          data-testid="send-download-limit"
          onChange={(e) => onChange((f) => setDownloadLimit(f, e.target.value))}
        />
        <p id={limitHintId} className="qs-hint">
          {t('send.expiry.downloadLimitHint')}
        </p>
      </div>
      {problem && <p className="qs-field-error">{problem}</p>}
      {someLocked && (
        <p className="qs-hint">
          {t('send.expiry.upgradeHint')} <Link to={paths.pricing({ plan: 'premium' })}>{t('send.toast.getTrial')}</Link>
        </p>
      )}
    </div>
  );
}
