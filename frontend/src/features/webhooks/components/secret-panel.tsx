import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useWhen } from '../use-when';
import { CopyButton } from '@/components/copy-button';
import { VERIFY_ID } from './verify-section';

/** A secret to show once: after creating an endpoint, or after rotating its secret. */
export type Revealed = { kind: 'created' | 'rotated'; url: string; secret: string; graceUntil?: number };

/** The secret, shown once, with the rotation's grace and the way to verify deliveries. */
export function SecretPanel({ revealed, onDone }: { revealed: Revealed; onDone: () => void }) {
  const { t } = useTranslation('webhooks');
  const when = useWhen();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  useEffect(() => headingRef.current?.focus(), [revealed]);
  return (
    <section className="card webhooks-secret" aria-labelledby={`${ids}-h`} data-testid="webhook-secret-panel">
      <h2 id={`${ids}-h`} ref={headingRef} tabIndex={-1}>
        {revealed.kind === 'created' ? t('webhooks.secret.createdTitle') : t('webhooks.secret.rotatedTitle')}
      </h2>
      <p className="muted">
        <code>{revealed.url}</code>
      </p>
      <p className="webhooks-secret-row">
        <code className="webhooks-secret-value" data-testid="webhook-secret">
          {revealed.secret}
        </code>
        <CopyButton
          value={revealed.secret}
          text={t('webhooks.secret.copy')}
          copiedText={t('webhooks.secret.copied')}
          testId="webhook-secret-copy"
        />
      </p>
      <p>
        <strong>{t('webhooks.secret.once')}</strong>
      </p>
      {revealed.graceUntil !== undefined && (
        <p data-testid="webhook-secret-grace">{t('webhooks.secret.grace', { time: when(revealed.graceUntil) })}</p>
      )}
      <p>
        {t('webhooks.secret.verifyHint')} <a href={`#${VERIFY_ID}`}>{t('webhooks.secret.verifyLink')}</a>
      </p>
      <button type="button" className="btn btn-primary btn-sm" onClick={onDone} data-testid="webhook-secret-done">
        {t('webhooks.secret.done')}
      </button>
    </section>
  );
}
