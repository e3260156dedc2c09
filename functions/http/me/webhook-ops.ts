/**
 * the webhook routes' work, written once. The dashboard's routes (`/webhooks…`, the
 * signed-in session's JWT) and the public API's (`/v1/webhooks…`, an API key with the `webhooks`
 * scope) serve the same operations with the same schemas; only the proof of the caller differs.
 * Either way the caller's user id alone chooses the endpoints (they live under the user's pk).
 */
import {
  createWebhookSchema,
  deliveryParamsSchema,
  rotateWebhookSchema,
  updateWebhookSchema,
  webhookIdParamsSchema,
} from '../../domain/webhooks-api';
import { httpRoute, type HttpRequest, type Reply, type Schemas } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { keyRoute } from '../../services/api-keys';
import {
  createWebhook,
  deleteWebhook,
  listEndpointDeliveries,
  listWebhooks,
  redeliver,
  rotateSecret,
  sendTestEvent,
  updateWebhook,
} from '../../services/webhooks';

interface WebhookOp<S extends Schemas> {
  readonly schemas: S;
  readonly run: (userId: string, req: HttpRequest<S>) => Promise<Reply>;
}

const op = <S extends Schemas>(
  schemas: S,
  run: (userId: string, req: HttpRequest<S>) => Promise<Reply>,
): WebhookOp<S> => ({ schemas, run });

export const webhookOps = {
  /** the caller's endpoints (secrets never), the limit, and an admin's member setting */
  list: op({}, async (userId) => ({ body: await listWebhooks(userId) })),
  /** a new endpoint; its signing secret is in this answer only */
  create: op({ body: createWebhookSchema }, async (userId, { body }) => ({
    status: 201,
    body: await createWebhook(userId, body),
  })),
  /** url, event types, description, enabled */
  update: op({ params: webhookIdParamsSchema, body: updateWebhookSchema }, async (userId, { params, body }) => ({
    body: await updateWebhook(userId, params.id, body),
  })),
  remove: op({ params: webhookIdParamsSchema }, async (userId, { params }) => ({
    body: await deleteWebhook(userId, params.id),
  })),
  /** a new secret (shown once); the old one signs too during the grace period */
  rotate: op({ params: webhookIdParamsSchema, body: rotateWebhookSchema }, async (userId, { params, body }) => ({
    body: await rotateSecret(userId, params.id, body.graceHours),
  })),
  /** the endpoint's delivery log, newest first */
  deliveries: op({ params: webhookIdParamsSchema }, async (userId, { params }) => ({
    body: await listEndpointDeliveries(userId, params.id),
  })),
  /** the same event (same id) sent again now */
  redeliver: op({ params: deliveryParamsSchema }, async (userId, { params }) => ({
    status: 202,
    body: await redeliver(userId, params.id, params.deliveryId),
  })),
  /** a `ping` event to this endpoint */
  test: op({ params: webhookIdParamsSchema }, async (userId, { params }) => ({
    status: 202,
    body: await sendTestEvent(userId, params.id),
  })),
} as const;

function callerOf(claims: HttpRequest<Schemas>['claims']): string {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return claims.sub;
}

/** The dashboard's route (JWT) of a webhook operation. */
export function sessionWebhookRoute<S extends Schemas>(o: WebhookOp<S>) {
  return httpRoute(o.schemas, (req) => o.run(callerOf(req.claims), req));
}

/** The public API's route (an API key with the `webhooks` scope) of a webhook operation. */
export function keyWebhookRoute<S extends Schemas>(o: WebhookOp<S>) {
  return keyRoute('webhooks', o.schemas, (req) => o.run(callerOf(req.claims), req));
}
