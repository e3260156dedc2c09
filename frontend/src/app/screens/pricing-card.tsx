import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CheckIcon } from '@/components/icons';
import { PlanSizeItems } from '@/components/plan-size-items';
import { formatCount, formatPrice } from '@/lib/format';
import { plan, type ListedRole } from '@/lib/plans';

export const POPULAR: ListedRole = 'pro';

/** A plan's card: its price in the period, what it gives, and its button when there is somewhere to go. */
export function PricingCard({
  role,
  yearly,
  selected,
  href,
  showAction,
}: {
  role: ListedRole;
  yearly: boolean;
  selected: boolean;
  href: string;
  showAction: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const limits = plan(role);
  const price = limits.price;
  const isFree = !price || price.monthly === 0;
  const classes = ['card', 'plan-card', role === POPULAR && 'plan-card-popular', selected && 'plan-card-selected'];
  return (
    <article className={classes.filter(Boolean).join(' ')} aria-current={selected ? 'true' : undefined}>
      <div className="plan-card-badges">
        {selected && <span className="badge">{t('pricing.selected')}</span>}
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
      {showAction && (
        <Link
          to={href}
          className={role === POPULAR ? 'btn btn-primary btn-block' : 'btn btn-ghost btn-block'}
          data-testid={`pricing-card-${role}`}
        >
          {isFree ? t('common.tryFree') : t('pricing.trial')}
        </Link>
      )}
    </article>
  );
}
