import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import { paths } from '@/app/paths';
import { expiryKey } from '@/shared/send-form/labels';
import { expiryOptions, selectExpiry, setCustomExpiry, type SenderContext } from '@/shared/send-form/send-state';
import { CustomExpiryInput } from '@/shared/send-form/components/custom-expiry-input';
import type { TabProps } from './option-tabs';

/** The plan's expiry periods (locked ones shown with the upgrade hint), and a custom date. */
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
      {problem && <p className="qs-field-error">{problem}</p>}
      {someLocked && (
        <p className="qs-hint">
          {t('send.expiry.upgradeHint')} <Link to={paths.pricing({ plan: 'premium' })}>{t('send.toast.getTrial')}</Link>
        </p>
      )}
    </div>
  );
}
