import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** GET /api/v1/webhooks (API key, webhooks): the key's user's endpoints (secrets never) and the limit. */
export const handler = keyWebhookRoute(webhookOps.list);
