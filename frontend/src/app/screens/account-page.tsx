import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { FolderSizeResponse } from '@domain/auth-api';
import { isPaidRole, limitsFor } from '@domain/plans';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchFolderSize } from '@/shared/account/account-api';
import { dashPaths } from '@/app/dash-paths';
import { formatSize } from '@/lib/format-size';
import { initialsOf } from '@/features/dashboard/profile';
import { usePlanName } from '@/lib/use-plan-name';
import { Avatar } from '@/features/dashboard/components/avatar';
import { UsageSummary } from '@/features/dashboard/components/usage-summary';
import { TransferSettingsCard } from '@/features/transfers/components/transfer-settings-card';
// the subscription's status on the plan card, and tab 1 (plan upgrade); their
// catalogue (`billing`) comes with this route (app/dash-routes.tsx)
import { PlanUpgrade } from '@/features/billing/components/plan-upgrade';
import { SubscriptionBadge } from '@/features/billing/components/subscription-badge';
import { useStripeData } from '@/features/billing/use-stripe-data';

const STATUS_KEYS = ['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused', 'revoke'] as const;
type StatusKey = (typeof STATUS_KEYS)[number];

function statusKey(status: string): StatusKey | null {
  if (status === 'cancelled') return 'canceled';
  return (STATUS_KEYS as readonly string[]).includes(status) ? (status as StatusKey) : null;
}

/** The account's tabs (spec §2: account, parameter tab; tab 1 is plan upgrade). */
const TABS = ['account', 'plan'] as const;

export function accountTab(raw: string | null): 0 | 1 {
  return raw === '1' ? 1 : 0;
}

/**
 * Account (spec §2 /dash/account): tab 0 the plan and its limits, usage, storage and profile;
 * tab 1 the plan upgrade.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const { t: tBilling } = useTranslation('billing');
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = accountTab(params.get('tab'));
  usePageTitle(t('dashboard.account.title'));
  if (!user) return <PageLoading />;
  // Team members' plan is their admin's: no plan tab for them.
  const tabs = user.isTeamMember ? TABS.slice(0, 1) : TABS;
  const shown = user.isTeamMember ? 0 : tab;

  const select = (index: number) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (index === 0) {
          next.delete('tab');
          next.delete('plan');
          next.delete('period');
        } else next.set('tab', String(index));
        return next;
      },
      { preventScrollReset: true },
    );

  return (
    <div className="container dash-page">
      <h1>{t('dashboard.account.title')}</h1>
      {tabs.length > 1 && (
        <div className="bl-tabs" role="tablist" aria-label={t('dashboard.account.title')}>
          {tabs.map((name, index) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`account-tab-${index}`}
              aria-selected={shown === index}
              aria-controls={`account-panel-${index}`}
              tabIndex={shown === index ? 0 : -1}
              className="bl-tab"
              onClick={() => select(index)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                  const next = (index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length;
                  select(next);
                  document.getElementById(`account-tab-${next}`)?.focus();
                }
              }}
              data-testid={`account-tab-${index}`}
            >
              {tBilling(`accountTabs.${name}`)}
            </button>
          ))}
        </div>
      )}
      <div
        role={tabs.length > 1 ? 'tabpanel' : undefined}
        id={`account-panel-${shown}`}
        aria-labelledby={tabs.length > 1 ? `account-tab-${shown}` : undefined}
      >
        {shown === 1 ? <PlanUpgrade /> : <AccountOverview />}
      </div>
    </div>
  );
}

/** Tab 0: the plan and its limits, usage, storage, and the way to upgrade. */
function AccountOverview() {
  const { t, i18n } = useTranslation();
  const { t: tBilling } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user } = useSession();
  const planName = usePlanName();
  const [folder, setFolder] = useState<FolderSizeResponse | null>(null);
  // the subscription's status and trial days (GET /getStripeData); team members have none of their own
  const stripe = useStripeData(user !== null && !user.isTeamMember);

  // The stored total is recounted on request; until it answers the session's figures show.
  useEffect(() => {
    let live = true;
    fetchFolderSize()
      .then((size) => {
        if (live) setFolder(size);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (!user) return <PageLoading />;
  const limits = limitsFor(user.role);
  // Free users carry the signup default status 'unpaid': a status only means something on a paid plan.
  const status = isPaidRole(user.role) ? statusKey(user.status) : null;

  const view = stripe.data?.view ?? null;

  return (
    <>
      <div className="dash-account-grid">
        <section className="card dash-plan" aria-labelledby="dash-plan-title" data-testid="account-plan">
          <h2 id="dash-plan-title">{t('dashboard.account.planTitle')}</h2>
          <p className="dash-plan-name">
            <span data-testid="account-plan-name">
              {t('dashboard.account.planName', { plan: planName(user.role) })}
            </span>
            {view && view.status !== 'none' ? (
              <SubscriptionBadge view={view} now={Date.now()} />
            ) : (
              status && (
                <span className={`badge dash-status dash-status-${status}`}>
                  {t(`dashboard.account.status.${status}`)}
                </span>
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

        <section className="card" aria-labelledby="dash-usage-title">
          <h2 id="dash-usage-title">{t('dashboard.account.usageTitle')}</h2>
          <UsageSummary user={user} storage={folder ? { used: folder.size, limit: folder.limit } : undefined} />
        </section>

        <TransferSettingsCard user={user} />

        <section className="card dash-profile-card" aria-labelledby="dash-profile-title">
          <h2 id="dash-profile-title">{t('dashboard.account.profileTitle')}</h2>
          <div className="dash-profile-summary">
            <Avatar
              src={user.profilePic}
              initials={initialsOf(user)}
              seed={user._id}
              alt={user.fullName || user.email}
              size={48}
            />
            <div>
              <p className="dash-profile-name">{user.fullName}</p>
              <p className="muted">{user.email}</p>
              {user.company && <p className="muted">{user.company}</p>}
            </div>
          </div>
          <Link to={dashPaths.profile()} className="btn btn-ghost btn-sm" data-testid="account-edit-profile">
            {t('dashboard.account.editProfile')}
          </Link>
        </section>
      </div>
      {/* the roadmap inside the dashboard */}
      <p className="dash-account-more">
        <Link to={dashPaths.roadmap()} className="text-link" data-testid="account-roadmap">
          {t('roadmap.title')}
        </Link>
      </p>
    </>
  );
}
