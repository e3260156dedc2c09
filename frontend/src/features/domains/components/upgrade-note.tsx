import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';

/** A feature of a higher plan: what it gives, and the way to the plan. */
export function UpgradeNote({ text, plan }: { text: string; plan: 'pro' | 'business' }) {
  const { t } = useTranslation('domains');
  return (
    <div className="domains-upgrade" data-testid={`domains-upgrade-${plan}`}>
      <p>{text}</p>
      <Link to={paths.account({ tab: 1, plan })} className="btn btn-primary btn-sm">
        {t('domains.upgrade')}
      </Link>
    </div>
  );
}
