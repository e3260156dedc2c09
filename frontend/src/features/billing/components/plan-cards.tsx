import { useTranslation } from 'react-i18next';
import type { BillingConfigResponse, BillingPeriod } from '@domain/billing-api';
import type { Role } from '@domain/plans';
import { usePlanName } from '@/lib/use-plan-name';
import { formatMoney, periodKey } from '../billing-format';
import { priceFor, TRIAL_ROLES, type TrialRole } from '../price-choice';

/** A card per plan: its price in the period, the current plan marked, and the button that chooses it. */
export function PlanCards({
  config,
  period,
  current,
  chosen,
  live,
  onChoose,
}: {
  config: BillingConfigResponse;
  period: BillingPeriod;
  current: { role: Role; period: BillingPeriod | null } | null;
  chosen: TrialRole | null;
  live: boolean;
  onChoose: (role: TrialRole) => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  return (
    <div className="card-grid card-grid-3 bl-plan-cards">
      {TRIAL_ROLES.map((planRole) => {
        const price = priceFor(config.prices, planRole, period);
        const isCurrent = current !== null && current.role === planRole && current.period === period;
        const isChosen = chosen === planRole;
        return (
          <article
            key={planRole}
            className={`card plan-card${isChosen ? ' plan-card-selected' : ''}`}
            data-testid={`upgrade-plan-${planRole}`}
          >
            <div className="plan-card-badges">
              {isCurrent && <span className="badge">{t('upgrade.current')}</span>}
              {current !== null && current.role === planRole && !isCurrent && (
                <span className="badge">{t('upgrade.currentOtherPeriod')}</span>
              )}
            </div>
            <h3>{planName(planRole)}</h3>
            <p className="plan-price">
              {price
                ? t(`checkout.${periodKey(period)}`, { amount: formatMoney(price.amount, price.currency, lng) })
                : t('upgrade.notOnSale')}
            </p>
            <button
              type="button"
              className={isChosen ? 'btn btn-primary btn-block' : 'btn btn-ghost btn-block'}
              disabled={!price || isCurrent}
              aria-pressed={isChosen}
              onClick={() => onChoose(planRole)}
              data-testid={`upgrade-choose-${planRole}`}
            >
              {isCurrent ? t('upgrade.current') : live ? t('upgrade.switch') : t('upgrade.startTrial')}
            </button>
          </article>
        );
      })}
    </div>
  );
}
