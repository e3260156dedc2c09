import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** GET /webhooks/{id}/deliveries (JWT): the endpoint's delivery log, newest first. */
export const handler = sessionWebhookRoute(webhookOps.deliveries);
