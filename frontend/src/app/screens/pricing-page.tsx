import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { CARD_ROLES, maxYearlySavingPercent, type ListedRole } from '@/lib/plans';
import { useIsServed } from '@/lib/served-routes';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { PlanTable } from '@/features/pricing/components/plan-table';
import { company } from '@/config/company';
// where 'Free trial' leads, the premium package's preselection, 'Contact us' (the
// `billing` catalogue comes with this route)
import { ContactRoles, useContactRoles } from '@/features/billing/components/contact-roles';
import { selectedPlan, trialHref } from '@/features/billing/price-choice';
import { FreeReadings } from './free-readings';
import { PricingCard } from './pricing-card';

/** Built by the Accounts issue; plan cards link to it only once it is served. */
const REGISTER_PATH = '/register';

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
  const { t } = useTranslation();
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
        <fieldset className="segmented" aria-label={t('pricing.billing')}>
          <button type="button" aria-pressed={!yearly} onClick={() => setYearly(false)}>
            {t('pricing.monthly')}
          </button>
          <button type="button" aria-pressed={yearly} onClick={() => setYearly(true)}>
            {t('pricing.yearly')}{' '}
            <span className="badge badge-success">{t('pricing.save', { percent: maxYearlySavingPercent() })}</span>
          </button>
        </fieldset>
      </PageHeader>

      {verified && !signedIn && (
        <p className="callout" role="status" data-testid="pricing-verified">
          {tBilling('offer.verified')}
        </p>
      )}

      <div className="card-grid card-grid-4 pricing-cards">
        {CARD_ROLES.map((role) => (
          <PricingCard
            key={role}
            role={role}
            yearly={yearly}
            selected={selected === role}
            href={href(role)}
            showAction={canRegister || signedIn}
          />
        ))}
      </div>

      <ContactRoles roles={contactRoles} email={company.supportEmail} />

      <FreeReadings />

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
