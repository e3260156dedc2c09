import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { BillingConfigResponse, BillingPeriod, StripeDataResponse } from '@domain/billing-api';
import type { Role } from '@domain/plans';
import { PageLoading } from '@/components/page-loading';
import { company } from '@/config/company';
import { usePlanName } from '@/lib/use-plan-name';
import { formatSize } from '@/lib/format-size';
import { ApiError } from '@/lib/api';
import { errorTextOf } from '@/i18n/error-keys';
import { useSession } from '@/lib/session/session-provider';
import { changePlan, fetchBillingConfig } from '../billing-api';
import { billingErrorKey } from '../billing-errors';
import { formatDay, formatMoney, periodKey, storageExcess } from '../billing-format';
import {
  changeKind,
  contactRolesOf,
  isLiveSubscription,
  isTrialRole,
  parsePeriod,
  priceFor,
  selectedPlan,
  TRIAL_ROLES,
  yearlySavingPercent,
  type TrialRole,
} from '../price-choice';
import { useStripeData } from '../use-stripe-data';
import { Checkout } from './checkout';
import { ConfirmActions } from './confirm-dialog';
import '../billing.css';

type Outcome =
  | { readonly kind: 'done'; readonly data: StripeDataResponse }
  | { readonly kind: 'failed'; readonly text: string }
  | null;

/**
 * /dash/account?tab=1 (spec §2: tab 1 = plan upgrade): the plans with a period toggle. Without
 * a subscription the chosen plan goes to the checkout (7-day trial); with one, POST
 * /create-subscription changes it: an upgrade now with proration, a downgrade at the period
 * end, refused with its reason when the files stored exceed the lower plan's storage.
 */
export function PlanUpgrade() {
  const { t, i18n } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const stripe = useStripeData();
  const [config, setConfig] = useState<BillingConfigResponse | null>(null);
  const [configFailed, setConfigFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const period = parsePeriod(params.get('period'));
  const chosen = selectedPlan(params.get('plan'));
  const role: TrialRole | null = isTrialRole(chosen) ? chosen : null;
  const coupon = params.get('coupon');

  useEffect(() => {
    let live = true;
    fetchBillingConfig()
      .then((answer) => live && setConfig(answer))
      .catch(() => live && setConfigFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const setQuery = (next: { plan?: Role | null; period?: BillingPeriod }) => {
    setOutcome(null);
    setParams(
      (current) => {
        const query = new URLSearchParams(current);
        query.set('tab', '1');
        if (next.period) query.set('period', next.period);
        if (next.plan === null) query.delete('plan');
        else if (next.plan) query.set('plan', next.plan);
        return query;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  if (session.user?.isTeamMember) return <p className="card bl-managed">{t('team.managed')}</p>;
  if (configFailed || stripe.failed) {
    return (
      <p className="bl-alert" role="alert">
        {tApp('errors.generic')}
      </p>
    );
  }
  if (!config || !stripe.data) return <PageLoading />;

  const view = (outcome?.kind === 'done' ? outcome.data : stripe.data).view;
  const live = isLiveSubscription(view.status);
  const current = live ? { role: view.role, period: view.period } : null;
  const saving = yearlySavingPercent(priceFor(config.prices, 'pro', 'month'), priceFor(config.prices, 'pro', 'year'));
  const target = role ? priceFor(config.prices, role, period) : null;
  const kind = current && role ? changeKind(current, { role, period }) : null;

  const confirmChange = async () => {
    if (!target || busy) return;
    setBusy(true);
    setOutcome(null);
    try {
      const data = await changePlan({ priceId: target.priceId });
      stripe.set(data);
      setOutcome({ kind: 'done', data });
      void session.reloadUser().catch(() => undefined);
    } catch (err) {
      setOutcome({ kind: 'failed', text: changeFailure(err) });
    } finally {
      setBusy(false);
    }
  };

  const changeFailure = (err: unknown): string => {
    if (err instanceof ApiError) {
      if (err.code === 'storage_exceeds_plan') {
        const excess = storageExcess(err.details);
        if (excess)
          return t('upgrade.storageExceeds', {
            used: formatSize(excess.used, lng),
            limit: formatSize(excess.limit, lng),
            plan: planName(excess.role ?? role ?? ''),
          });
        return t('upgrade.storageExceedsShort');
      }
    }
    const own = billingErrorKey(err);
    if (own) return t(own);
    return (tApp as (key: string) => string)(errorTextOf(err).key);
  };

  return (
    <section className="bl-upgrade" aria-labelledby="bl-upgrade-title" data-testid="plan-upgrade">
      <div className="bl-upgrade-head">
        <h2 id="bl-upgrade-title">{live ? t('upgrade.changeTitle') : t('upgrade.chooseTitle')}</h2>
        <div className="segmented" role="group" aria-label={t('upgrade.period')}>
          <button
            type="button"
            aria-pressed={period === 'month'}
            onClick={() => setQuery({ period: 'month' })}
            data-testid="upgrade-monthly"
          >
            {t('upgrade.monthly')}
          </button>
          <button
            type="button"
            aria-pressed={period === 'year'}
            onClick={() => setQuery({ period: 'year' })}
            data-testid="upgrade-yearly"
          >
            {t('upgrade.yearly')}{' '}
            {saving !== null && saving > 0 && (
              <span className="badge badge-success">{t('upgrade.save', { percent: saving })}</span>
            )}
          </button>
        </div>
      </div>
      {!live && (
        <p className="muted">{t('upgrade.trialLead', { count: config.trialDays, refundDays: config.refundDays })}</p>
      )}

      <div className="card-grid card-grid-3 bl-plan-cards">
        {TRIAL_ROLES.map((planRole) => {
          const price = priceFor(config.prices, planRole, period);
          const isCurrent = current !== null && current.role === planRole && current.period === period;
          const isChosen = role === planRole;
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
                onClick={() => setQuery({ plan: planRole })}
                data-testid={`upgrade-choose-${planRole}`}
              >
                {isCurrent ? t('upgrade.current') : live ? t('upgrade.switch') : t('upgrade.startTrial')}
              </button>
            </article>
          );
        })}
      </div>

      <p className="bl-contact muted">
        {t('upgrade.contact', { plans: contactRolesOf(config).map(planName).join(', ') })}{' '}
        <a
          href={`mailto:${company.supportEmail}?subject=${encodeURIComponent(t('upgrade.contactSubject'))}`}
          data-testid="upgrade-contact"
        >
          {t('upgrade.contactUs')}
        </a>
      </p>

      {outcome?.kind === 'done' && (
        <p className="bl-success" role="status" data-testid="upgrade-done">
          {outcome.data.view.pendingChange
            ? t('upgrade.scheduled', {
                plan: planName(outcome.data.view.pendingChange.role),
                date: formatDay(outcome.data.view.pendingChange.at, lng),
              })
            : t('upgrade.changed', { plan: planName(outcome.data.view.role) })}
        </p>
      )}

      {role && !live && target && (
        <div className="bl-upgrade-checkout" data-testid="upgrade-checkout">
          <Checkout key={`${role}-${period}`} role={role} period={period} coupon={coupon} />
        </div>
      )}

      {role && live && target && kind !== 'same' && outcome?.kind !== 'done' && (
        <div className="card bl-change" data-testid="upgrade-confirm">
          <h3>
            {t('upgrade.confirmTitle', {
              plan: planName(role),
              price: t(`checkout.${periodKey(period)}`, { amount: formatMoney(target.amount, target.currency, lng) }),
            })}
          </h3>
          <p>
            {kind === 'upgrade'
              ? t('upgrade.upgradeNote')
              : view.renewalDate !== null
                ? t('upgrade.downgradeNote', { date: formatDay(view.renewalDate, lng) })
                : t('upgrade.downgradeNoteNoDate')}
          </p>
          {outcome?.kind === 'failed' && (
            <p className="bl-alert" role="alert" data-testid="upgrade-error">
              {outcome.text}
            </p>
          )}
          <ConfirmActions
            busy={busy}
            confirmLabel={kind === 'upgrade' ? t('upgrade.confirmUpgrade') : t('upgrade.confirmDowngrade')}
            onConfirm={() => void confirmChange()}
            confirmTestId="upgrade-confirm-button"
            backLabel={t('upgrade.keep')}
            onBack={() => setQuery({ plan: null })}
          />
        </div>
      )}
    </section>
  );
}
