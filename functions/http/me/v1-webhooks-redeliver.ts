import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver (API key, webhooks): the same event (same id) sent again now. */
export const handler = keyWebhookRoute(webhookOps.redeliver);
