import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** PATCH /api/v1/webhooks/{id} (API key, webhooks): url, event types, description, enabled. */
export const handler = keyWebhookRoute(webhookOps.update);
