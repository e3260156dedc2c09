import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** GET /webhooks (JWT): the caller's endpoints (secrets never), the limit, and an admin's member setting. */
export const handler = sessionWebhookRoute(webhookOps.list);
