import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKeyView } from '@domain/api-keys';
import { TableHead } from '@/components/table-head';
import { KeyRow } from './key-row';

/** The keys, each with Revoke; what a revocation came to is said under the table. */
export function KeyList({ keys, onRevoked }: { keys: readonly ApiKeyView[]; onRevoked: (k: ApiKeyView) => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const ids = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  return (
    <section className="card" aria-labelledby={`${ids}-title`} data-testid="apikeys-list">
      <h2 id={`${ids}-title`} ref={headingRef} tabIndex={-1}>
        {t('list.title')}
      </h2>
      {keys.length === 0 ? (
        <p className="muted" data-testid="apikeys-empty">
          {t('list.empty')}
        </p>
      ) : (
        <div className="ak-table-wrap">
          <table className="ak-table">
            <TableHead
              columns={[
                t('list.name'),
                t('list.key'),
                t('list.scopes'),
                t('list.created'),
                t('list.lastUsed'),
                <span key="actions" className="sr-only">
                  {t('list.actions')}
                </span>,
              ]}
            />
            <tbody>
              {keys.map((k) => (
                <KeyRow
                  key={k.id}
                  k={k}
                  onRevoked={(gone) => {
                    setNotice({ kind: 'ok', text: t('list.revoked', { name: gone.name }) });
                    onRevoked(gone);
                    // the row and its buttons are gone: focus goes to the list's heading
                    headingRef.current?.focus();
                  }}
                  onError={(text) => setNotice({ kind: 'error', text })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className={notice?.kind === 'error' ? 'dash-error' : 'ak-notice'} role="status" data-testid="apikeys-notice">
        {notice?.text ?? ''}
      </p>
    </section>
  );
}
