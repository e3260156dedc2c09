import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { ContactView } from '@domain/auth-api';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { QuickSend } from '@/features/send/components/quick-send';
import { sendDefaultsOf } from '@/shared/send-form/send-defaults';
import { RecentTransfers } from '@/features/transfers/components/recent-transfers';
import { useTransferList } from '@/features/transfers/hooks/use-transfer-list';
import { transferListCache } from '@/features/transfers/list-cache';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchContacts } from '@/shared/account/account-api';
import { fetchTeam } from '@/features/teams/api/teams-api';
import type { TeamMemberOption } from '@/shared/send-form/send-state';
import { dashPaths } from '@/app/dash-paths';
import { blockReasonOf } from '@/features/dashboard/limit-screen';
import { greetingNameOf, initialsOf } from '@/features/dashboard/profile';
import { usePlanName } from '@/lib/use-plan-name';
import { Avatar } from '@/features/dashboard/components/avatar';
import { LimitScreen } from '@/features/dashboard/components/limit-screen';
import { UsageSummary } from '@/features/dashboard/components/usage-summary';

/** Dashboard home (spec §2): greeting, quick send (or the limit screen), usage and the latest transfers. */
export function DashboardHome() {
  const { t } = useTranslation();
  const { user, accessToken, reloadUser } = useSession();
  const planName = usePlanName();
  const [contacts, setContacts] = useState<readonly ContactView[]>([]);
  // the Sharing tab's team mates (spec §3 Team member option); none outside a team
  const [teamMembers, setTeamMembers] = useState<readonly TeamMemberOption[]>([]);
  // After a send the done view stays up with its link even if the refreshed user is now blocked.
  const [sentHere, setSentHere] = useState(false);
  usePageTitle(t('dashboard.home.title'));
  // The transfers list's first page (cached, then fresh): the five latest and this month's count.
  const transfers = useTransferList(user?._id ?? '', 'all', '');

  const loadContacts = useCallback((isLive: () => boolean) => {
    fetchContacts()
      .then((list) => {
        if (isLive()) setContacts(list);
      })
      // Suggestions are a convenience: without them the recipient box works as for a guest.
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    let live = true;
    loadContacts(() => live);
    return () => {
      live = false;
    };
  }, [loadContacts]);

  useEffect(() => {
    const abort = new AbortController();
    fetchTeam(abort.signal)
      .then((team) =>
        setTeamMembers(
          team.members.map((m) => ({
            shareWithId: m.shareWithId,
            shareWithEmail: m.shareWithEmail,
            shareWithFullName: m.shareWithFullName,
            shareWithProfilePic: m.shareWithProfilePic ?? '',
          })),
        ),
      )
      // Sharing is optional: without the list the tab says it's just you.
      .catch(() => undefined);
    return () => abort.abort();
  }, []);

  const onSent = useCallback(() => {
    setSentHere(true);
    // Usage (storage, this month's transfers), contacts (new recipients) and the latest transfers changed.
    reloadUser().catch(() => undefined);
    loadContacts(() => true);
    transferListCache().invalidate();
  }, [reloadUser, loadContacts]);

  // the review mail's link (domain/review.ts senderReviewPath): that transfer's review
  const reviewSlug = useSearchParams()[0].get('review');
  if (reviewSlug)
    return <Navigate to={`${dashPaths.transfer(reviewSlug)}#review`} state={{ returnTo: dashPaths.home() }} replace />;
  if (!user || !accessToken) return <PageLoading />;
  const reason = sentHere ? null : blockReasonOf(user);

  return (
    <div className="container dash-page">
      <header className="dash-header">
        <Avatar
          src={user.profilePic}
          initials={initialsOf(user)}
          seed={user._id}
          alt={user.fullName || user.email}
          size={56}
        />
        <div>
          <h1 data-testid="dashboard-greeting">{t('dashboard.home.greeting', { name: greetingNameOf(user) })}</h1>
          <p className="muted">{t('dashboard.home.lead')}</p>
        </div>
      </header>
      <div className="dash-home-grid">
        <div className="dash-send">
          {reason ? (
            <LimitScreen reason={reason} user={user} />
          ) : (
            <QuickSend
              session={{
                accessToken,
                email: user.email,
                role: user.role,
                teamMembers,
                defaults: sendDefaultsOf(user.transferSettings, { role: user.role, signedIn: true, email: user.email }),
              }}
              contacts={contacts}
              onSent={onSent}
            />
          )}
        </div>
        <aside className="card dash-side" aria-labelledby="dash-usage-title">
          <h2 id="dash-usage-title">{t('dashboard.home.usageTitle')}</h2>
          <p className="dash-plan-line">
            {t('dashboard.account.planName', { plan: planName(user.role) })}
            {' · '}
            <Link to={dashPaths.account()}>{t('dashboard.home.accountLink')}</Link>
          </p>
          <UsageSummary
            user={
              transfers.list && !transfers.refreshing
                ? { ...user, thisMonthsTransfers: transfers.list.counts.thisMonthsTransfers }
                : user
            }
            storageNote={reason !== 'storage_full'}
          />
          {!reason && user.role === 'free' && !user.isTeamMember && (
            <Link to={paths.pricing()} className="btn btn-primary btn-block" data-testid="dashboard-upgrade">
              {t('dashboard.limit.upgrade')}
            </Link>
          )}
        </aside>
      </div>
      <RecentTransfers rows={transfers.list?.rows ?? null} failed={Boolean(transfers.error)} />
    </div>
  );
}
