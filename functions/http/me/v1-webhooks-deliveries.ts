import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** GET /api/v1/webhooks/{id}/deliveries (API key, webhooks): the endpoint's delivery log, newest first. */
export const handler = keyWebhookRoute(webhookOps.deliveries);
