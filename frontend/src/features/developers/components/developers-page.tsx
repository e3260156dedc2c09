import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { apiFetch } from '@/lib/api';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { OPENAPI_PATH } from '../openapi-path';
import { apiDocView } from '../openapi-view';
import { AuthSection, ErrorsSection, LimitsSection, SendSection } from './guide-sections';
import { Reference } from './reference';
import { WebhooksSection } from './webhooks-section';
import '../developers.css';

/** The deployment's document, read into what the reference shows. */
const fetchApiDoc = async (signal: AbortSignal) => apiDocView(await apiFetch<unknown>(OPENAPI_PATH, { signal }));

/**
 * /developers: how to use the public API v1 with a key (authentication, a whole send
 * with curl and TypeScript, errors, rate limits), then the reference, rendered from the OpenAPI
 * document this deployment serves at GET /api/v1/openapi.json.
 */
export function DevelopersPage() {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  usePageTitle(t('title'));
  const load = useLoad(fetchApiDoc, []);

  // Until the document arrives, the examples use this origin's API.
  const api = load.state === 'ready' && load.data.serverUrl ? load.data.serverUrl : `${window.location.origin}/api`;

  return (
    <div className="container dev-page">
      <h1>{t('title')}</h1>
      <p className="lead muted">{t('lead')}</p>
      <AuthSection api={api} doc={load.state === 'ready' ? load.data : null} />
      <SendSection api={api} />
      <ErrorsSection />
      <LimitsSection />
      <WebhooksSection api={api} />
      {load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('loadFailed')} retryLabel={t('retry')} onRetry={load.reload} />
      ) : (
        <Reference doc={load.data} />
      )}
    </div>
  );
}
