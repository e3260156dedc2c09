import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** POST /api/v1/webhooks/{id}/test (API key, webhooks): a `ping` event to this endpoint. */
export const handler = keyWebhookRoute(webhookOps.test);
