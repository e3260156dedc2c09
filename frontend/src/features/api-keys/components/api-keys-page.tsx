import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CreateApiKeyResponse } from '@domain/api-keys';
import { paths } from '@/app/paths';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { accountMenuItems } from '@/lib/session/user-display';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchApiKeys } from '../api-keys-api';
import { CreateForm } from './create-form';
import { KeyList } from './key-list';
import { MembersSetting } from './members-setting';
import { NewKey } from './new-key';
import '../api-keys.css';

/**
 * /dash/account/api-keys: create a named key with scopes (its secret shown once),
 * see every key's first characters, scopes, creation and last use, revoke one. A team member
 * whose admin has not allowed keys is refused here (and the API refuses them alike); a team
 * admin also decides whether members may use keys.
 */
export function ApiKeysPage() {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const { user } = useSession();
  usePageTitle(t('title'));
  const [created, setCreated] = useState<CreateApiKeyResponse | null>(null);
  // the account menu's rule: everyone but a team member whose admin has not allowed keys
  const permitted = user !== null && accountMenuItems(user).includes('apiKeys');
  const load = useLoad(fetchApiKeys, [], { enabled: permitted });

  if (!user) return <PageLoading />;
  const refused = !permitted || (load.state === 'ready' && !load.data.allowed);
  const update = load.setData;

  return (
    <div className="container dash-page ak-page">
      <h1>{t('title')}</h1>
      <p className="lead muted">
        {t('lead')} <Link to={paths.developers()}>{t('docsLink')}</Link>
      </p>
      {refused ? (
        <p className="card" role="alert" data-testid="apikeys-refused">
          {t('refused')}
        </p>
      ) : load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('loadFailed')} retryLabel={t('retry')} onRetry={load.reload} />
      ) : (
        <>
          {created && <NewKey key={created.id} created={created} onDone={() => setCreated(null)} />}
          <CreateForm
            onCreated={(key) => {
              setCreated(key);
              const { key: _secret, ...view } = key;
              update((d) => ({ ...d, keys: [view, ...d.keys] }));
            }}
          />
          <KeyList
            keys={load.data.keys}
            onRevoked={(gone) => update((d) => ({ ...d, keys: d.keys.filter((k) => k.id !== gone.id) }))}
          />
          {load.data.membersAllowed !== undefined && (
            <MembersSetting
              allowed={load.data.membersAllowed}
              onChange={(membersAllowed) => update((d) => ({ ...d, membersAllowed }))}
            />
          )}
        </>
      )}
    </div>
  );
}
