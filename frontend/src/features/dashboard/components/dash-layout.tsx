import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { dashPaths } from '../dash-paths';
import { FeedbackWidget } from './feedback-widget';
import '../dashboard.css';

/** Frame of the dashboard screens: their tabs, the Feedback button and the feedback prompt. */
export function DashLayout() {
  const { t } = useTranslation();
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
            <NavLink end to={dashPaths.account()} className="dash-tab">
              {t('dashboard.nav.account')}
            </NavLink>
            <NavLink end to={dashPaths.profile()} className="dash-tab">
              {t('dashboard.nav.profile')}
            </NavLink>
          </nav>
          <FeedbackWidget user={user} />
        </div>
      </div>
      <Outlet />
    </div>
  );
}
