import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import { CustomExpiryInput } from '@/shared/send-form/components/custom-expiry-input';
import { expiryKey } from '@/shared/send-form/labels';
import { expiryOptions } from '@/shared/send-form/send-state';
import { useSession } from '@/lib/session/session-provider';
import { changeExpiry } from '../api/transfers-api';
import { expiryChoiceProblem } from '../action-rules';
import { formatDateTime } from '../transfer-format';
import { PanelForm, type PanelProps } from './panel-form';

export function ExpiryPanel({ detail, run, busy, onCancel }: PanelProps) {
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
      <p className="muted">{t('expiry.current', { date: formatDateTime(detail.expiryDate, lng) })}</p>
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
          <CustomExpiryInput
            id={dateId}
            className="field-input"
            value={custom}
            now={now}
            invalid={!!problem}
            onChange={setCustom}
            testId="expiry-date"
          />
        </div>
      )}
      {problem && custom !== null && <p className="tr-field-error">{tApp(`send.errors.${problem}`)}</p>}
      {options.some((o) => !o.allowed) && <p className="muted tr-hint">{tApp('send.expiry.upgradeHint')}</p>}
    </PanelForm>
  );
}
