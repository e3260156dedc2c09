import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** DELETE /api/v1/webhooks/{id} (API key, webhooks): removes one of the key's user's endpoints. */
export const handler = keyWebhookRoute(webhookOps.remove);
