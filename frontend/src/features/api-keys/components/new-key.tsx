import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreateApiKeyResponse } from '@domain/api-keys';

/** The whole key, this once: copy it, then it is gone. Focus lands on its heading. */
export function NewKey({ created, onDone }: { created: CreateApiKeyResponse; onDone: () => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const ids = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => headingRef.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // Clipboard refused (permissions): the key stays selectable on the page.
    }
  };
  return (
    <section className="card ak-new" aria-labelledby={`${ids}-title`} data-testid="apikeys-new">
      <h2 id={`${ids}-title`} ref={headingRef} tabIndex={-1}>
        {t('new.title', { name: created.name })}
      </h2>
      <p className="ak-warning">
        <strong>{t('new.once')}</strong> {t('new.store')}
      </p>
      <div className="ak-secret-row">
        <code className="ak-secret" data-testid="apikeys-secret">
          {created.key}
        </code>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()} data-testid="apikeys-copy">
          {copied ? t('new.copied') : t('new.copy')}
        </button>
      </div>
      <p className="sr-only" role="status">
        {copied ? t('new.copied') : ''}
      </p>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onDone} data-testid="apikeys-new-done">
        {t('new.done')}
      </button>
    </section>
  );
}
