import { sessionWebhookRoute, webhookOps } from './webhook-ops';

/** POST /webhooks/{id}/test (JWT): a `ping` event to this endpoint. */
export const handler = sessionWebhookRoute(webhookOps.test);
