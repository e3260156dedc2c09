import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FREE_MARKETING_FILE_SIZE_BYTES, FREE_MARKETING_STORAGE_BYTES, PLANS } from '../../../../../functions/domain/plans';
import { CheckIcon } from '@/components/icons';
import { PageHeader } from '@/components/page-header';
import { formatBytes, formatCount, formatPrice } from '@/lib/format';
import { CARD_ROLES, maxYearlySavingPercent, plan, type ListedRole } from '@/lib/plans';
import { useIsServed } from '@/lib/served-routes';
import { usePageTitle } from '@/lib/use-page-title';
import { PlanTable } from '@/features/pricing/components/plan-table';

/** Built by the Accounts issue; plan cards link to it only once it is served. */
const REGISTER_PATH = '/register';
const POPULAR: ListedRole = 'pro';

export function PricingPage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [searchParams, setSearchParams] = useSearchParams();
  const yearly = searchParams.has('save') && searchParams.get('save') !== '0';
  const selected = searchParams.get('plan');
  const canRegister = useIsServed(REGISTER_PATH);
  usePageTitle(t('pricing.title'));

  // Spec §1/§9: the sign-up offer (20 GB / 5 GB) and the plan table (10 GB / 3 GB) both stand.
  const marketing = { storage: formatBytes(FREE_MARKETING_STORAGE_BYTES, lng), file: formatBytes(FREE_MARKETING_FILE_SIZE_BYTES, lng) };
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
            {t('pricing.yearly')} <span className="badge badge-success">{t('pricing.save', { percent: maxYearlySavingPercent() })}</span>
          </button>
        </div>
      </PageHeader>

      <div className="card-grid card-grid-4 pricing-cards">
        {CARD_ROLES.map((role) => {
          const limits = plan(role);
          const price = limits.price;
          const isFree = !price || price.monthly === 0;
          const classes = ['card', 'plan-card', role === POPULAR && 'plan-card-popular', selected === role && 'plan-card-selected'];
          return (
            <article key={role} className={classes.filter(Boolean).join(' ')} aria-current={selected === role ? 'true' : undefined}>
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
                <li><CheckIcon /> {t('home.plans.perTransfer', { size: formatBytes(limits.uploadLimit, lng) })}</li>
                <li><CheckIcon /> {t('home.plans.storage', { size: formatBytes(limits.storage, lng) })}</li>
                <li><CheckIcon /> {t('pricing.table.recipients')}: {formatCount(limits.emailTo, lng)}</li>
                {limits.teamLimit > 0 && <li><CheckIcon /> {t('pricing.table.team')}: {formatCount(limits.teamLimit, lng)}</li>}
                <li>
                  <CheckIcon />{' '}
                  {limits.monthlyTransfers === null
                    ? t('pricing.unlimitedTransfers')
                    : t('pricing.transfersPerMonth', { count: limits.monthlyTransfers })}
                </li>
              </ul>
              {canRegister && (
                <Link to={`${REGISTER_PATH}?plan=${role}`} className={role === POPULAR ? 'btn btn-primary btn-block' : 'btn btn-ghost btn-block'}>
                  {isFree ? t('common.tryFree') : t('pricing.trial')}
                </Link>
              )}
            </article>
          );
        })}
      </div>

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

      <PlanTable yearly={yearly} selected={selected} />
    </div>
  );
}
