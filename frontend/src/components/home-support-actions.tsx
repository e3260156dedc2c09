import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';

/** The "Back to home" / "Visit support" pair that closes the end-of-road pages (404, thank-you). */
export function HomeSupportActions() {
  const { t } = useTranslation();
  return (
    <div className="hero-actions center-actions">
      <Link to={paths.home()} className="btn btn-primary">
        {t('common.backHome')}
      </Link>
      <Link to={paths.support()} className="btn btn-ghost">
        {t('common.visitSupport')}
      </Link>
    </div>
  );
}
