import { httpRoute } from '../../lib/http';
import { payments } from '../../adapters/payments/index';
import { handleWebhook } from '../../services/billing';

/**
 * POST /stripe/webhook (no JWT): the provider's events. No body schema, so the middleware never
 * parses or re-serialises the body: the signature is checked over the exact bytes received
 * (API Gateway base64-encodes a body it takes for binary; the local gateway does the same).
 */
export const handler = httpRoute({}, async ({ event, header }) => {
  const raw = event.body ?? '';
  const body = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return { body: await handleWebhook(payments(), body, header('stripe-signature'), Date.now()) };
});
