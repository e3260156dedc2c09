import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { importWithRetry } from '@/lib/import-with-retry';
import { useSession } from '@/lib/session/session-provider';
import { dashPaths } from '@/app/dash-paths';
import { FeedbackWidget } from '@/features/dashboard/components/feedback-widget';
import '@/features/dashboard/dashboard.css';

/** What's new (its count and panel) loads after the dashboard's first paint, never in its way. */
const WhatsNewButton = lazy(() =>
  importWithRetry(() => import('@/features/whats-new/components/whats-new-button')).then(
    (m): { default: ComponentType<{ userId: string; createdAt?: number }> } => ({ default: m.WhatsNewButton }),
    (): { default: ComponentType<{ userId: string; createdAt?: number }> } => ({ default: () => null }),
  ),
);

/** Frame of the dashboard screens: their tabs, the Feedback button and the feedback prompt. */
export function DashLayout() {
  const { t } = useTranslation();
  const { t: tTransfers } = useTranslation('transfers');
  const { t: tInsights } = useTranslation('insights');
  const { t: tContacts } = useTranslation('contacts');
  const { t: tRequests } = useTranslation('requests');
  // The tab labels: the `settings` catalogue, fetched on first use rather than waited for
  // by the layout's route (which would grow every page's entry chunk); the tabs show once it is in.
  const { t: tSettings, ready: settingsReady } = useTranslation('settings', { useSuspense: false });
  const { user } = useSession();
  // The /dash guard only lets signed-in users through; this covers the instant of a sign-out.
  if (!user) return <PageLoading />;
  return (
    <div className="dash">
      <div className="dash-bar">
        <div className="container dash-bar-inner">
          <nav className="dash-tabs" aria-label={t('dashboard.nav.label')}>
            <NavLink end to={dashPaths.home()} className="dash-tab">
              {t('dashboard.nav.home')}
            </NavLink>
            <NavLink to={dashPaths.transfers()} className="dash-tab" data-testid="dash-tab-transfers">
              {tTransfers('dashTab.label')}
            </NavLink>
            {/* file requests */}
            <NavLink to={dashPaths.requests()} className="dash-tab" data-testid="dash-tab-requests">
              {tRequests('dashTab.label')}
            </NavLink>
            <NavLink end to={dashPaths.analytics()} className="dash-tab" data-testid="dash-tab-analytics">
              {tInsights('analytics.tab')}
            </NavLink>
            {/* Contacts */}
            <NavLink end to={dashPaths.contacts()} className="dash-tab" data-testid="dash-tab-contacts">
              {tContacts('tab')}
            </NavLink>
            <NavLink end to={dashPaths.account()} className="dash-tab">
              {t('dashboard.nav.account')}
            </NavLink>
            <NavLink end to={dashPaths.profile()} className="dash-tab">
              {t('dashboard.nav.profile')}
            </NavLink>
            {settingsReady && (
              <>
                <NavLink end to={dashPaths.dataResidency()} className="dash-tab" data-testid="dash-tab-data-residency">
                  {tSettings('dashNav.dataResidency')}
                </NavLink>
                <NavLink end to={dashPaths.settings()} className="dash-tab" data-testid="dash-tab-settings">
                  {tSettings('dashNav.settings')}
                </NavLink>
              </>
            )}
          </nav>
          <Suspense fallback={null}>
            <WhatsNewButton
              userId={user._id}
              {...(user.createdAt !== undefined ? { createdAt: user.createdAt } : {})}
            />
          </Suspense>
          <FeedbackWidget user={user} />
        </div>
      </div>
      <Outlet />
    </div>
  );
}
