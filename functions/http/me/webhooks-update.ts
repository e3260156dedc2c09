import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** PATCH /webhooks/{id} (JWT): url, event types, description, enabled; the id names only the caller's own. */
export const handler = sessionWebhookRoute(webhookOps.update);
