import { useTranslation } from 'react-i18next';
import { VERIFY_SNIPPET } from '../verify-snippet';

/** The id the secret panel links to. */
export const VERIFY_ID = 'webhooks-verify';

export function VerifySection() {
  const { t } = useTranslation('webhooks');
  return (
    <section
      className="card"
      id={VERIFY_ID}
      aria-labelledby={`${VERIFY_ID}-h`}
      tabIndex={-1}
      data-testid="webhook-verify"
    >
      <h2 id={`${VERIFY_ID}-h`}>{t('webhooks.verify.title')}</h2>
      <p>{t('webhooks.verify.body')}</p>
      <p>{t('webhooks.verify.retries')}</p>
      <p>{t('webhooks.verify.snippet')}</p>
      {/* a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
      <pre className="webhooks-snippet" tabIndex={0}>
        <code data-testid="webhook-verify-snippet">{VERIFY_SNIPPET}</code>
      </pre>
    </section>
  );
}
