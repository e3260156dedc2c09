import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchDomainSettings } from '../domains-api';
import { CustomDomainCard } from './custom-domain-card';
import { EmailDomainCard } from './email-domain-card';
import '../domains.css';

/**
 * /dash/account/domain (spec §2 domainSettings): the custom link domain (typedDomain,
 * the DNS records to create, domain_status, Check now) and, in a section of its own, the sender
 * email domain (pmDomain and its DKIM records). Team members see that their admin manages it.
 */
export function DomainSettingsPage() {
  const { t } = useTranslation('domains');
  const { user } = useSession();
  usePageTitle(t('domains.title'));
  const member = user?.isTeamMember === true;
  const load = useLoad(fetchDomainSettings, [user], { enabled: user !== null && !member });
  const setSettings = load.setData;

  if (!user) return <PageLoading />;
  return (
    <div className="container dash-page domains-page">
      <h1>{t('domains.title')}</h1>
      <p className="lead muted">{t('domains.lead')}</p>
      {member ? (
        <p className="card" data-testid="domains-member">
          {t('domains.member')}
        </p>
      ) : load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('domains.loadFailed')} retryLabel={t('domains.retry')} onRetry={load.reload} />
      ) : (
        <>
          <CustomDomainCard settings={load.data} setSettings={setSettings} />
          <EmailDomainCard settings={load.data} setSettings={setSettings} />
        </>
      )}
    </div>
  );
}
