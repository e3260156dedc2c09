import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookEndpointView } from '@domain/webhooks-api';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { ApiError } from '@/lib/api';
import { useSession } from '@/lib/session/session-provider';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchWebhooks } from '../webhooks-api';
import { AddForm } from './add-form';
import { EndpointCard } from './endpoint-card';
import { SecretPanel, type Revealed } from './secret-panel';
import { TeamToggle } from './team-toggle';
import { VerifySection } from './verify-section';
import '../webhooks.css';

/** A team member whose admin has not allowed webhooks: said once, no Retry. */
const isMemberRefusal = (err: unknown) => err instanceof ApiError && err.code === 'team_member_forbidden';

/**
 * /dash/account/webhooks: the user's endpoints (URL, events, enabled, last delivery),
 * adding one (its secret shown once), editing events, enabling or disabling, rotating the secret
 * (the old one signs beside the new for 24 h), deleting after an inline confirmation, a test
 * event, and each endpoint's delivery log with Redeliver. A team member whose admin has not
 * allowed webhooks is refused (the server decides, 403 team_member_forbidden); an admin sees the
 * toggle that allows them.
 */
export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const { user } = useSession();
  usePageTitle(t('webhooks.title'));
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const userId = user?._id;
  const load = useLoad(fetchWebhooks, [userId], { enabled: Boolean(userId), refused: isMemberRefusal });
  const edit = load.setData;
  const replaceEndpoint = (e: WebhookEndpointView) =>
    edit((l) => ({ ...l, endpoints: l.endpoints.map((x) => (x.id === e.id ? e : x)) }));

  if (!user) return <PageLoading />;
  return (
    <div className="container dash-page webhooks-page">
      <h1>{t('webhooks.title')}</h1>
      <p className="lead muted">{t('webhooks.lead')}</p>
      {load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'refused' ? (
        <p className="card" data-testid="webhooks-refused">
          {t('webhooks.memberRefused')}
        </p>
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('webhooks.loadFailed')} retryLabel={t('webhooks.retry')} onRetry={load.reload} />
      ) : (
        <>
          {revealed && <SecretPanel revealed={revealed} onDone={() => setRevealed(null)} />}
          <section className="webhooks-list" aria-labelledby="webhooks-list-h">
            <h2 id="webhooks-list-h">
              {t('webhooks.list.title')}{' '}
              <span className="muted webhooks-count">
                {t('webhooks.list.count', { count: load.data.endpoints.length, max: load.data.max })}
              </span>
            </h2>
            {load.data.endpoints.length === 0 ? (
              <p className="muted" data-testid="webhooks-empty">
                {t('webhooks.list.empty')}
              </p>
            ) : (
              <ul className="webhooks-endpoints">
                {load.data.endpoints.map((e) => (
                  <EndpointCard
                    key={e.id}
                    endpoint={e}
                    onChanged={replaceEndpoint}
                    onRemoved={(id) => edit((l) => ({ ...l, endpoints: l.endpoints.filter((x) => x.id !== id) }))}
                    onRotated={(next, secret) => {
                      replaceEndpoint(next);
                      setRevealed({
                        kind: 'rotated',
                        url: next.url,
                        secret,
                        ...(next.previousSecretExpiresAt !== undefined
                          ? { graceUntil: next.previousSecretExpiresAt }
                          : {}),
                      });
                    }}
                  />
                ))}
              </ul>
            )}
          </section>
          <AddForm
            list={load.data}
            onCreated={(endpoint, secret) => {
              edit((l) => ({ ...l, endpoints: [...l.endpoints, endpoint] }));
              setRevealed({ kind: 'created', url: endpoint.url, secret });
            }}
          />
          {load.data.settings && (
            <TeamToggle
              allowed={load.data.settings.membersAllowed}
              onSaved={(membersAllowed) => edit((l) => ({ ...l, settings: { membersAllowed } }))}
            />
          )}
          <VerifySection />
        </>
      )}
    </div>
  );
}
