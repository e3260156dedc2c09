import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { HomeSupportActions } from '@/components/home-support-actions';
import { CheckIcon } from '@/components/icons';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * /thankyou (and /accept-invite): all set. A signed-in user (a team member who has just accepted
 * an invite lands here signed in) goes on to the dashboard; a visitor gets home and support.
 * /thankyou2, the trial's, is features/billing's.
 */
export function ThankyouDonePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  usePageTitle(t('thankyou.title'));

  return (
    <section className="container narrow center-block">
      <span className="success-mark" aria-hidden="true">
        <CheckIcon width={36} height={36} />
      </span>
      <h1>{t('thankyou.title')}</h1>
      <p className="lead">{t('thankyou.body')}</p>
      {user ? (
        <div className="hero-actions center-actions">
          <Link to={paths.dash()} className="btn btn-primary" data-testid="thankyou-dashboard">
            {t('thankyou.toDashboard')}
          </Link>
          <Link to={paths.support()} className="btn btn-ghost">
            {t('common.visitSupport')}
          </Link>
        </div>
      ) : (
        <HomeSupportActions />
      )}
    </section>
  );
}
