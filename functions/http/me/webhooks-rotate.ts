import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** POST /webhooks/{id}/rotate (JWT): a new secret (shown once); the old one signs too during the grace period. */
export const handler = sessionWebhookRoute(webhookOps.rotate);
