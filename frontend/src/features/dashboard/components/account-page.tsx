import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FolderSizeResponse } from '@domain/auth-api';
import { isPaidRole, limitsFor } from '@domain/plans';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchFolderSize } from '../api/dashboard-api';
import { dashPaths } from '../dash-paths';
import { formatSize } from '../format-size';
import { initialsOf } from '../profile';
import { usePlanName } from '../use-plan-name';
import { Avatar } from './avatar';
import { UsageSummary } from './usage-summary';
import { TransferSettingsCard } from '@/features/transfers/components/transfer-settings-card';

const STATUS_KEYS = ['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused', 'revoke'] as const;
type StatusKey = (typeof STATUS_KEYS)[number];

function statusKey(status: string): StatusKey | null {
  if (status === 'cancelled') return 'canceled';
  return (STATUS_KEYS as readonly string[]).includes(status) ? (status as StatusKey) : null;
}

/** Account (spec §2 /dash/account): plan and its limits, usage, storage, and the way to upgrade. */
export function AccountPage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user } = useSession();
  const planName = usePlanName();
  const [folder, setFolder] = useState<FolderSizeResponse | null>(null);
  usePageTitle(t('dashboard.account.title'));

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

  return (
    <div className="container dash-page">
      <h1>{t('dashboard.account.title')}</h1>
      <div className="dash-account-grid">
        <section className="card dash-plan" aria-labelledby="dash-plan-title" data-testid="account-plan">
          <h2 id="dash-plan-title">{t('dashboard.account.planTitle')}</h2>
          <p className="dash-plan-name">
            <span data-testid="account-plan-name">{t('dashboard.account.planName', { plan: planName(user.role) })}</span>
            {status && <span className={`badge dash-status dash-status-${status}`}>{t(`dashboard.account.status.${status}`)}</span>}
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
            <Link to={paths.pricing()} className="btn btn-primary" data-testid="account-upgrade">
              {t('dashboard.limit.upgrade')}
            </Link>
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
            <Avatar src={user.profilePic} initials={initialsOf(user)} alt={user.fullName || user.email} size={48} />
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
      {/* issue 13: the roadmap inside the dashboard */}
      <p className="dash-account-more">
        <Link to={dashPaths.roadmap()} className="text-link" data-testid="account-roadmap">
          {t('roadmap.title')}
        </Link>
      </p>
    </div>
  );
}
