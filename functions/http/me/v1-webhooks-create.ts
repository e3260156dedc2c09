import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** POST /api/v1/webhooks (API key, webhooks): a new endpoint; its signing secret is in this answer only. */
export const handler = keyWebhookRoute(webhookOps.create);
