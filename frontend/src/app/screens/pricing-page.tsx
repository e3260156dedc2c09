import { useTranslation } from 'react-i18next';
import { PlanSizeItems } from '@/components/plan-size-items';
import { Link, useSearchParams } from 'react-router';
import { FREE_MARKETING_FILE_SIZE_BYTES, FREE_MARKETING_STORAGE_BYTES, PLANS } from '@domain/plans';
import { CheckIcon } from '@/components/icons';
import { PageHeader } from '@/components/page-header';
import { formatBytes, formatCount, formatPrice } from '@/lib/format';
import { CARD_ROLES, maxYearlySavingPercent, plan, type ListedRole } from '@/lib/plans';
import { useIsServed } from '@/lib/served-routes';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { PlanTable } from '@/features/pricing/components/plan-table';
import { company } from '@/config/company';
// where 'Free trial' leads, the premium package's preselection, 'Contact us' (the
// `billing` catalogue comes with this route)
import { ContactRoles, useContactRoles } from '@/features/billing/components/contact-roles';
import { selectedPlan, trialHref } from '@/features/billing/price-choice';

/** Built by the Accounts issue; plan cards link to it only once it is served. */
const REGISTER_PATH = '/register';
const POPULAR: ListedRole = 'pro';

/**
 * A plan's button target: signed out, registration with the plan and period (after a verified
 * email, `verifyComplete`, straight to its step 3); signed in, the dashboard (free) or the
 * account's plan tab.
 */
function planHref(
  role: ListedRole,
  yearly: boolean,
  signedIn: boolean,
  verified: boolean,
  coupon: string | null,
): string {
  const href = trialHref(role, yearly ? 'year' : 'month', signedIn, coupon);
  return !signedIn && verified ? href.replace('/register?', '/register?step=3&') : href;
}

export function PricingPage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [searchParams, setSearchParams] = useSearchParams();
  const yearly = searchParams.has('save') && searchParams.get('save') !== '0';
  // spec §4: the premium package (PRM, from the guest done view) preselects pro
  const selected = selectedPlan(searchParams.get('plan'));
  const verified = searchParams.has('verifyComplete') && searchParams.get('verifyComplete') !== '0';
  const coupon = searchParams.get('coupon')?.slice(0, 255) || null;
  const canRegister = useIsServed(REGISTER_PATH);
  const { status, user } = useSession();
  const signedIn = status === 'authenticated' && user !== null;
  const { t: tBilling } = useTranslation('billing');
  const contactRoles = useContactRoles();
  const href = (role: ListedRole) => planHref(role, yearly, signedIn, verified, coupon);
  usePageTitle(t('pricing.title'));

  // Spec §1/§9: the sign-up offer (20 GB / 5 GB) and the plan table (10 GB / 3 GB) both stand.
  const marketing = {
    storage: formatBytes(FREE_MARKETING_STORAGE_BYTES, lng),
    file: formatBytes(FREE_MARKETING_FILE_SIZE_BYTES, lng),
  };
  const free = PLANS.free;

  const setYearly = (value: boolean) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (value) next.set('save', '1');
        else next.delete('save');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <div className="container">
      <PageHeader title={t('pricing.heading')} lead={t('pricing.subtitle')}>
        <div className="segmented" role="group" aria-label={t('pricing.billing')}>
          <button type="button" aria-pressed={!yearly} onClick={() => setYearly(false)}>
            {t('pricing.monthly')}
          </button>
          <button type="button" aria-pressed={yearly} onClick={() => setYearly(true)}>
            {t('pricing.yearly')}{' '}
            <span className="badge badge-success">{t('pricing.save', { percent: maxYearlySavingPercent() })}</span>
          </button>
        </div>
      </PageHeader>

      {verified && !signedIn && (
        <p className="callout" role="status" data-testid="pricing-verified">
          {tBilling('offer.verified')}
        </p>
      )}

      <div className="card-grid card-grid-4 pricing-cards">
        {CARD_ROLES.map((role) => {
          const limits = plan(role);
          const price = limits.price;
          const isFree = !price || price.monthly === 0;
          const classes = [
            'card',
            'plan-card',
            role === POPULAR && 'plan-card-popular',
            selected === role && 'plan-card-selected',
          ];
          return (
            <article
              key={role}
              className={classes.filter(Boolean).join(' ')}
              aria-current={selected === role ? 'true' : undefined}
            >
              <div className="plan-card-badges">
                {selected === role && <span className="badge">{t('pricing.selected')}</span>}
                {role === POPULAR && <span className="badge badge-brand">{t('pricing.popular')}</span>}
              </div>
              <h2>{t(`plans.${role}`)}</h2>
              <p className="plan-price">
                {isFree ? formatPrice(0, lng) : formatPrice(yearly ? price.yearly : price.monthly, lng)}
                {!isFree && <span>{yearly ? t('pricing.perYear') : t('pricing.perMonth')}</span>}
              </p>
              <p className="plan-note">{isFree ? t('pricing.free') : t('pricing.trial')}</p>
              <ul className="check-list">
                <PlanSizeItems uploadLimit={limits.uploadLimit} storage={limits.storage} />
                <li>
                  <CheckIcon /> {t('pricing.table.recipients')}: {formatCount(limits.emailTo, lng)}
                </li>
                {limits.teamLimit > 0 && (
                  <li>
                    <CheckIcon /> {t('pricing.table.team')}: {formatCount(limits.teamLimit, lng)}
                  </li>
                )}
                <li>
                  <CheckIcon />{' '}
                  {limits.monthlyTransfers === null
                    ? t('pricing.unlimitedTransfers')
                    : t('pricing.transfersPerMonth', { count: limits.monthlyTransfers })}
                </li>
              </ul>
              {(canRegister || signedIn) && (
                <Link
                  to={href(role)}
                  className={role === POPULAR ? 'btn btn-primary btn-block' : 'btn btn-ghost btn-block'}
                  data-testid={`pricing-card-${role}`}
                >
                  {isFree ? t('common.tryFree') : t('pricing.trial')}
                </Link>
              )}
            </article>
          );
        })}
      </div>

      <ContactRoles roles={contactRoles} email={company.supportEmail} />

      <aside className="callout" aria-labelledby="free-readings">
        <h2 id="free-readings">{t('pricing.freeReadings.title')}</h2>
        <p>{t('pricing.freeReadings.body')}</p>
        <dl className="callout-figures">
          <div>
            <dt>{t('pricing.freeReadings.offer')}</dt>
            <dd>{t('home.plans.storage', { size: marketing.storage })}</dd>
            <dd>{t('pricing.freeReadings.perFile', { size: marketing.file })}</dd>
          </div>
          <div>
            <dt>{t('pricing.freeReadings.planTable')}</dt>
            <dd>{t('home.plans.storage', { size: formatBytes(free.storage, lng) })}</dd>
            <dd>{t('home.plans.perTransfer', { size: formatBytes(free.uploadLimit, lng) })}</dd>
          </div>
        </dl>
      </aside>

      <PlanTable
        yearly={yearly}
        selected={selected}
        actionHeader={tBilling('offer.action')}
        action={(role) => {
          if (role === 'anon') return null;
          if (contactRoles.includes(role)) {
            return (
              <a
                href={`mailto:${company.supportEmail}?subject=${encodeURIComponent(tBilling('offer.contactSubject', { plan: t(`plans.${role}`) }))}`}
                className="btn btn-ghost btn-sm"
                data-testid={`plan-table-contact-${role}`}
              >
                {t('pricing.contact')}
              </a>
            );
          }
          if (!canRegister && !signedIn) return null;
          return (
            <Link to={href(role)} className="btn btn-primary btn-sm" data-testid={`plan-table-trial-${role}`}>
              {role === 'free' ? t('common.tryFree') : tBilling('offer.freeTrial')}
            </Link>
          );
        }}
      />
    </div>
  );
}
