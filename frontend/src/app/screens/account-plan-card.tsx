import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SessionUser } from '@domain/auth-api';
import type { SubscriptionView } from '@domain/billing-api';
import { isPaidRole, limitsFor } from '@domain/plans';
import { paths } from '@/app/paths';
import { formatCount } from '@/lib/format';
import { formatSize } from '@/lib/format-size';
import { usePlanName } from '@/lib/use-plan-name';
// the subscription's status on the plan card; its catalogue (`billing`) comes with this route (app/dash-routes.tsx)
import { SubscriptionBadge } from '@/features/billing/components/subscription-badge';

const STATUS_KEYS = ['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused', 'revoke'] as const;
type StatusKey = (typeof STATUS_KEYS)[number];

function statusKey(status: string): StatusKey | null {
  if (status === 'cancelled') return 'canceled';
  return (STATUS_KEYS as readonly string[]).includes(status) ? (status as StatusKey) : null;
}

/** The plan card: the plan and its status, its limits, and the way to change it (not for team members). */
export function PlanCard({ user, view }: { user: SessionUser; view: SubscriptionView | null }) {
  const { t, i18n } = useTranslation();
  const { t: tBilling } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  const limits = limitsFor(user.role);
  // Free users carry the signup default status 'unpaid': a status only means something on a paid plan.
  const status = isPaidRole(user.role) ? statusKey(user.status) : null;
  return (
    <section className="card dash-plan" aria-labelledby="dash-plan-title" data-testid="account-plan">
      <h2 id="dash-plan-title">{t('dashboard.account.planTitle')}</h2>
      <p className="dash-plan-name">
        <span data-testid="account-plan-name">{t('dashboard.account.planName', { plan: planName(user.role) })}</span>
        {view && view.status !== 'none' ? (
          <SubscriptionBadge view={view} now={Date.now()} />
        ) : (
          status && (
            <span className={`badge dash-status dash-status-${status}`}>{t(`dashboard.account.status.${status}`)}</span>
          )
        )}
      </p>
      <dl className="dash-facts">
        <div>
          <dt>{t('dashboard.account.uploadLimit')}</dt>
          <dd>{formatSize(limits.uploadLimit, lng)}</dd>
        </div>
        <div>
          <dt>{t('dashboard.account.storageLimit')}</dt>
          <dd>{formatSize(user.storageLimit, lng)}</dd>
        </div>
        <div>
          <dt>{t('dashboard.account.recipients')}</dt>
          <dd>{formatCount(limits.emailTo, lng)}</dd>
        </div>
        <div>
          <dt>{t('dashboard.account.files')}</dt>
          <dd>{formatCount(limits.files, lng)}</dd>
        </div>
      </dl>
      {user.isTeamMember ? (
        <p className="muted">{t('dashboard.account.teamManaged')}</p>
      ) : (
        <p className="dash-plan-actions">
          <Link to={paths.account({ tab: 1 })} className="btn btn-primary" data-testid="account-upgrade">
            {view && view.status !== 'none' && view.status !== 'canceled'
              ? tBilling('accountTabs.changePlan')
              : t('dashboard.limit.upgrade')}
          </Link>{' '}
          <Link to={paths.accountBilling()} className="btn btn-ghost" data-testid="account-billing">
            {tBilling('accountTabs.billing')}
          </Link>
        </p>
      )}
    </section>
  );
}
