import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { eventTextKey } from '@/shared/webhooks/delivery-format';
import {
  EXAMPLE_DELIVERY,
  EXAMPLE_SECRET,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_GRACE_HOURS,
  WEBHOOK_HEADER_ROWS,
  WEBHOOK_RECEIVER_TS,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_VERIFY_TS,
  webhookRegisterExamples,
} from '../examples';
import { Code } from './code';

/**
 * /developers' webhooks section: the event types and their envelope, how deliveries
 * are retried and de-duplicated, registering an endpoint with a `webhooks` key (curl and
 * TypeScript) or in the dashboard, and verifying a delivery's signature (TypeScript, node:crypto).
 * Event types, header names and the tolerance come from the contract (functions/domain/webhooks-api.ts).
 */
export function WebhooksSection({ api }: { api: string }) {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  const register = webhookRegisterExamples(api);
  return (
    <section className="dev-section dev-webhooks" aria-labelledby="dev-webhooks" data-testid="dev-webhooks">
      <h2 id="dev-webhooks">{t('webhooks.title')}</h2>
      <p>{t('webhooks.lead')}</p>

      <h3 id="dev-webhooks-events">{t('webhooks.eventsTitle')}</h3>
      <dl className="dev-codes" aria-labelledby="dev-webhooks-events" data-testid="dev-webhook-events">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <div key={type}>
            <dt>
              <code>{type}</code>
            </dt>
            <dd>{t(`webhooks.events.${eventTextKey(type)}`)}</dd>
          </div>
        ))}
        <div>
          <dt>
            <code>ping</code>
          </dt>
          <dd>{t('webhooks.events.ping')}</dd>
        </div>
      </dl>

      <h3 id="dev-webhooks-delivery">{t('webhooks.deliveryTitle')}</h3>
      <p>{t('webhooks.deliveryLead')}</p>
      <dl className="dev-codes" aria-labelledby="dev-webhooks-delivery" data-testid="dev-webhook-headers">
        {WEBHOOK_HEADER_ROWS.map((h) => (
          <div key={h.key}>
            <dt>
              <code>{h.name}</code>
            </dt>
            <dd>{t(`webhooks.headers.${h.key}`)}</dd>
          </div>
        ))}
      </dl>
      <Code label={t('webhooks.exampleLabel')} code={EXAMPLE_DELIVERY} testId="dev-webhook-example" />
      <p>{t('webhooks.testVector', { secret: EXAMPLE_SECRET })}</p>
      <p>{t('webhooks.retries', { hours: WEBHOOK_RETRY_HOURS })}</p>
      <p>{t('webhooks.idempotency')}</p>

      <h3>{t('webhooks.registerTitle')}</h3>
      <p>{t('webhooks.registerLead')}</p>
      <p>
        {t('webhooks.registerDash')} <Link to={paths.accountWebhooks()}>{t('webhooks.dashLink')}</Link>
      </p>
      <Code label="curl" code={register.curl} testId="dev-webhook-register-curl" />
      <Code label="TypeScript" code={register.ts} testId="dev-webhook-register-ts" />

      <h3>{t('webhooks.verifyTitle')}</h3>
      <p>{t('webhooks.verifyLead', { seconds: WEBHOOK_TOLERANCE_SECONDS })}</p>
      <Code label="TypeScript (node:crypto)" code={WEBHOOK_VERIFY_TS} testId="dev-webhook-verify" />
      <p>{t('webhooks.receiverLead')}</p>
      <Code label="TypeScript (node:http)" code={WEBHOOK_RECEIVER_TS} testId="dev-webhook-receiver" />
      <p>{t('webhooks.rotation', { hours: WEBHOOK_GRACE_HOURS })}</p>
    </section>
  );
}
