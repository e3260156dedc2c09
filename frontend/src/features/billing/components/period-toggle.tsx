import { useTranslation } from 'react-i18next';
import type { BillingPeriod } from '@domain/billing-api';

/** Monthly or yearly prices, with the yearly saving when there is one. */
export function PeriodToggle({
  period,
  saving,
  onPick,
}: {
  period: BillingPeriod;
  saving: number | null;
  onPick: (period: BillingPeriod) => void;
}) {
  const { t } = useTranslation('billing');
  return (
    <fieldset className="segmented" aria-label={t('upgrade.period')}>
      <button
        type="button"
        aria-pressed={period === 'month'}
        onClick={() => onPick('month')}
        data-testid="upgrade-monthly"
      >
        {t('upgrade.monthly')}
      </button>
      <button
        type="button"
        aria-pressed={period === 'year'}
        onClick={() => onPick('year')}
        data-testid="upgrade-yearly"
      >
        {t('upgrade.yearly')}{' '}
        {saving !== null && saving > 0 && (
          <span className="badge badge-success">{t('upgrade.save', { percent: saving })}</span>
        )}
      </button>
    </fieldset>
  );
}
