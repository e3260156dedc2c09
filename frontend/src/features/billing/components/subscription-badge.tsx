import { useTranslation } from 'react-i18next';
import type { SubscriptionView } from '@domain/billing-api';
import { formatDay, statusTone, trialDaysLeft } from '../billing-format';
import '../billing.css';

/** The subscription's status badge and, while trialing, 'n days left in trial' with the end date. */
export function SubscriptionBadge({ view, now }: { readonly view: SubscriptionView; readonly now: number }) {
  const { t, i18n } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  if (view.status === 'none') return null;
  const days = trialDaysLeft(view, now);
  return (
    <span className="bl-status-line">
      <span
        className={`badge bl-badge bl-tone-${statusTone(view.status)}`}
        data-testid="subscription-status"
        data-status={view.status}
      >
        {t(`status.${view.status}`)}
      </span>
      {days !== null && (
        <span className="bl-trial-left" data-testid="trial-days-left">
          {view.trialEnd !== null
            ? t('trial.daysLeftUntil', { count: days, date: formatDay(view.trialEnd, lng) })
            : t('trial.daysLeft', { count: days })}
        </span>
      )}
    </span>
  );
}
