import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SubscriptionView } from '@domain/billing-api';
import { DEFAULT_ROLE } from '@domain/plans';
import { paths } from '@/app/paths';
import { usePlanName } from '@/lib/use-plan-name';
import { formatDay, formatMoney, hasManagedSubscription, periodKey, renewalLine } from '../billing-format';
import { SubscriptionBadge } from './subscription-badge';

/** The subscription: plan, amount, period, trial end, renewal, discount; or the plan held, or none. */
export function SubscriptionSection({ view, now }: { view: SubscriptionView; now: number }) {
  const { t, i18n } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  const managed = hasManagedSubscription(view);
  const held = !managed && view.role !== DEFAULT_ROLE;
  const renewal = renewalLine(view);
  const otherPeriod = view.period === 'year' ? 'month' : 'year';
  return (
    <section className="card bl-subscription" aria-labelledby="bl-sub-title" data-testid="billing-subscription">
      <h2 id="bl-sub-title">{t('page.subscription')}</h2>
      {managed ? (
        <>
          <p className="bl-plan-line">
            <strong data-testid="billing-plan">{view.nickname ?? planName(view.role)}</strong>{' '}
            <SubscriptionBadge view={view} now={now} />
          </p>
          <dl className="bl-facts">
            {view.amount !== null && view.currency !== null && view.period !== null && (
              <div>
                <dt>{t('page.amount')}</dt>
                <dd data-testid="billing-amount">
                  {t(`checkout.${periodKey(view.period)}`, { amount: formatMoney(view.amount, view.currency, lng) })}
                </dd>
              </div>
            )}
            {view.period !== null && (
              <div>
                <dt>{t('page.period')}</dt>
                <dd data-testid="billing-period">{t(`page.periods.${view.period}`)}</dd>
              </div>
            )}
            {view.status === 'trialing' && view.trialEnd !== null && (
              <div>
                <dt>{t('page.trialEnd')}</dt>
                <dd data-testid="billing-trial-end">{formatDay(view.trialEnd, lng)}</dd>
              </div>
            )}
            {renewal && (
              <div>
                <dt>{t(`page.renewal.${renewal.kind}`)}</dt>
                <dd data-testid="billing-renewal" data-kind={renewal.kind}>
                  {formatDay(renewal.at, lng)}
                </dd>
              </div>
            )}
            {view.discount && (
              <div>
                <dt>{t('page.discount')}</dt>
                <dd>
                  {view.discount.percentOff !== null
                    ? t('page.percentOff', { percent: view.discount.percentOff })
                    : view.discount.amountOff !== null && view.currency !== null
                      ? formatMoney(view.discount.amountOff, view.currency, lng)
                      : (view.discount.code ?? '')}
                </dd>
              </div>
            )}
          </dl>
          {view.pendingChange && (
            <p className="muted" data-testid="billing-pending">
              {t('page.pending', {
                plan: planName(view.pendingChange.role),
                period: t(`page.periods.${view.pendingChange.period}`),
                date: formatDay(view.pendingChange.at, lng),
              })}
            </p>
          )}
          {(view.status === 'past_due' || view.status === 'unpaid') && (
            <p className="bl-alert" role="alert">
              {t('page.paymentTrouble')}
            </p>
          )}
          <p className="bl-actions">
            <Link to={paths.account({ tab: 1 })} className="btn btn-primary btn-sm" data-testid="billing-change-plan">
              {t('page.changePlan')}
            </Link>
            {view.period !== null && (
              <Link
                to={paths.account({ tab: 1, plan: view.role, period: otherPeriod })}
                className="btn btn-ghost btn-sm"
                data-testid="billing-switch-period"
              >
                {otherPeriod === 'year' ? t('page.switchYearly') : t('page.switchMonthly')}
              </Link>
            )}
          </p>
        </>
      ) : held ? (
        <>
          {/* A plan held without a subscription (a lifetime deal, a granted plan): nothing renews, nothing to cancel. */}
          <p className="bl-plan-line" data-testid="billing-held">
            <strong data-testid="billing-plan">{planName(view.role)}</strong>
          </p>
          <p>{t('page.held', { plan: planName(view.role) })}</p>
          <Link to={paths.account({ tab: 1 })} className="btn btn-ghost btn-sm" data-testid="billing-choose-plan">
            {t('page.changePlan')}
          </Link>
        </>
      ) : (
        <>
          <p data-testid="billing-none">{view.status === 'canceled' ? t('page.ended') : t('page.none')}</p>
          <Link to={paths.account({ tab: 1 })} className="btn btn-primary btn-sm" data-testid="billing-choose-plan">
            {t('page.choosePlan')}
          </Link>
        </>
      )}
      {view.sumoCodes > 0 && <p className="muted">{t('page.sumo', { count: view.sumoCodes })}</p>}
    </section>
  );
}
