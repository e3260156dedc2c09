import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';
import { company } from '@/config/company';
import { useSession } from '@/lib/session/session-provider';
import { usePlanName } from '@/lib/use-plan-name';
import { formatDay } from '../billing-format';
import { changeKind, contactRolesOf, isLiveSubscription, priceFor, yearlySavingPercent } from '../price-choice';
import { usePlanUpgrade } from '../use-plan-upgrade';
import { ChangeConfirm } from './change-confirm';
import { Checkout } from './checkout';
import { PeriodToggle } from './period-toggle';
import { PlanCards } from './plan-cards';
import '../billing.css';

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
  const { period, role, coupon, config, configFailed, stripe, done, action, setQuery, confirmChange } =
    usePlanUpgrade();

  if (session.user?.isTeamMember) return <p className="card bl-managed">{t('team.managed')}</p>;
  if (configFailed || stripe.failed) {
    return (
      <p className="bl-alert" role="alert">
        {tApp('errors.generic')}
      </p>
    );
  }
  if (!config || !stripe.data) return <PageLoading />;

  const view = (done ?? stripe.data).view;
  const live = isLiveSubscription(view.status);
  const current = live ? { role: view.role, period: view.period } : null;
  const saving = yearlySavingPercent(priceFor(config.prices, 'pro', 'month'), priceFor(config.prices, 'pro', 'year'));
  const target = role ? priceFor(config.prices, role, period) : null;
  const kind = current && role ? changeKind(current, { role, period }) : null;

  return (
    <section className="bl-upgrade" aria-labelledby="bl-upgrade-title" data-testid="plan-upgrade">
      <div className="bl-upgrade-head">
        <h2 id="bl-upgrade-title">{live ? t('upgrade.changeTitle') : t('upgrade.chooseTitle')}</h2>
        <PeriodToggle period={period} saving={saving} onPick={(next) => setQuery({ period: next })} />
      </div>
      {!live && (
        <p className="muted">{t('upgrade.trialLead', { count: config.trialDays, refundDays: config.refundDays })}</p>
      )}

      <PlanCards
        config={config}
        period={period}
        current={current}
        chosen={role}
        live={live}
        onChoose={(plan) => setQuery({ plan })}
      />

      <p className="bl-contact muted">
        {t('upgrade.contact', { plans: contactRolesOf(config).map(planName).join(', ') })}{' '}
        <a
          href={`mailto:${company.supportEmail}?subject=${encodeURIComponent(t('upgrade.contactSubject'))}`}
          data-testid="upgrade-contact"
        >
          {t('upgrade.contactUs')}
        </a>
      </p>

      {done && (
        <p className="bl-success" role="status" data-testid="upgrade-done">
          {done.view.pendingChange
            ? t('upgrade.scheduled', {
                plan: planName(done.view.pendingChange.role),
                date: formatDay(done.view.pendingChange.at, lng),
              })
            : t('upgrade.changed', { plan: planName(done.view.role) })}
        </p>
      )}

      {role && !live && target && (
        <div className="bl-upgrade-checkout" data-testid="upgrade-checkout">
          <Checkout key={`${role}-${period}`} role={role} period={period} coupon={coupon} />
        </div>
      )}

      {role && live && target && kind !== 'same' && !done && (
        <ChangeConfirm
          role={role}
          period={period}
          target={target}
          kind={kind}
          view={view}
          action={action}
          onConfirm={() => void confirmChange(target.priceId)}
          onKeep={() => setQuery({ plan: null })}
        />
      )}
    </section>
  );
}
