import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** POST /webhooks (JWT): a new endpoint; its signing secret is in this answer only. */
export const handler = sessionWebhookRoute(webhookOps.create);
