import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** DELETE /webhooks/{id} (JWT): removes one of the caller's endpoints. */
export const handler = sessionWebhookRoute(webhookOps.remove);
