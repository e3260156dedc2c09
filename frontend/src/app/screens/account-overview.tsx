import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FolderSizeResponse } from '@domain/auth-api';
import { dashPaths } from '@/app/dash-paths';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { fetchFolderSize } from '@/shared/account/account-api';
import { initialsOf } from '@/features/dashboard/profile';
import { Avatar } from '@/features/dashboard/components/avatar';
import { UsageSummary } from '@/features/dashboard/components/usage-summary';
import { TransferSettingsCard } from '@/features/transfers/components/transfer-settings-card';
import { useStripeData } from '@/features/billing/use-stripe-data';
import { PlanCard } from './account-plan-card';

/** Tab 0: the plan and its limits, usage, storage, and the way to upgrade. */
export function AccountOverview() {
  const { t } = useTranslation();
  const { user } = useSession();
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
  const view = stripe.data?.view ?? null;

  return (
    <>
      <div className="dash-account-grid">
        <PlanCard user={user} view={view} />

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
