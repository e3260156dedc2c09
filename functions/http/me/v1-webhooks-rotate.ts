import { keyWebhookRoute, webhookOps } from './webhook-ops';

/** POST /api/v1/webhooks/{id}/rotate (API key, webhooks): a new secret (shown once); the old one signs too during the grace period. */
export const handler = keyWebhookRoute(webhookOps.rotate);
