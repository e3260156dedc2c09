import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { company } from '@/config/company';

/**
 * 'Powered by <brand>{{name}}</brand>' with the brand linked home. Split by hand rather than
 * with react-i18next's <Trans>, which would add ~5 KiB to the page's first load for one link.
 */
export function PoweredBy() {
  const { t } = useTranslation();
  const text = t('download.poweredBy', { name: company.name });
  const parts = /^([\s\S]*)<brand>([\s\S]*)<\/brand>([\s\S]*)$/u.exec(text);
  if (!parts) return <>{text}</>;
  return (
    <>
      {parts[1]}
      <Link to={paths.home()}>{parts[2]}</Link>
      {parts[3]}
    </>
  );
}
