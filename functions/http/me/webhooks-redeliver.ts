import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver (JWT): the same event (same id) sent again now. */
export const handler = sessionWebhookRoute(webhookOps.redeliver);
