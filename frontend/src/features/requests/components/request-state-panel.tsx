import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestLoad } from '../hooks/use-public-request';
import type { ClosedKind } from '../request-state';

/** The request's page while it loads. */
export function RequestLoading() {
  const { t } = useTranslation('requests');
  return (
    <main className="container rq-public">
      <p className="rq-status" role="status" data-testid="request-loading">
        {t('public.loading')}
      </p>
    </main>
  );
}

/** Why there is no request to answer: unknown, closed (and why), or not loaded (with Retry). */
export function RequestStatePanel({
  load,
  onRetry,
}: {
  load: Exclude<RequestLoad, { status: 'loading' }>;
  onRetry(): void;
}) {
  const { t } = useTranslation('requests');
  const ids = useId();
  const kind: 'missing' | ClosedKind | 'failed' =
    load.status === 'closed' ? load.kind : load.status === 'missing' ? 'missing' : 'failed';
  return (
    <main className="container rq-public">
      <section className="rq-state-card" data-testid="request-state" data-state={kind} aria-labelledby={`${ids}-state`}>
        <h1 id={`${ids}-state`}>{t(`public.state.${kind}.title`)}</h1>
        <p>{t(`public.state.${kind}.body`)}</p>
        {load.status === 'failed' && (
          <button type="button" className="btn btn-primary" onClick={onRetry} data-testid="request-retry">
            {t('public.retry')}
          </button>
        )}
      </section>
    </main>
  );
}
