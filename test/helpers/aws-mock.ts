/**
 * Shared setup of the unit tests that mock the AWS SDK v3 clients (aws-sdk-client-mock): the
 * unit environment, the table's document client mock, and the service errors the SDK throws,
 * built from the SDK's own exception classes so `name` and fields are the real ones.
 */
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { UNIT_ENV } from './events';

/**
 * Sets the environment functions/lib/env.ts reads. Call at the top of a test module, before
 * any code calls config() (it is read once per process and cached).
 */
export function useUnitEnv(extra: Record<string, string> = {}): void {
  Object.assign(process.env, UNIT_ENV, extra);
}

export const TABLE = UNIT_ENV.TABLE_NAME!;

/**
 * One mock of the document client for the whole test process: `ddb()` returns a
 * DynamoDBDocument (a DynamoDBDocumentClient), whose `send` this replaces on the prototype.
 * Tests call `ddbMock.reset()` in beforeEach.
 */
export const ddbMock = mockClient(DynamoDBDocumentClient);

const meta = { $metadata: { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 } };

export function conditionFailed(item?: Record<string, unknown>): ConditionalCheckFailedException {
  const err = new ConditionalCheckFailedException({ message: 'The conditional request failed', ...meta });
  // ReturnValuesOnConditionCheckFailure: ALL_OLD hands the item back on the error.
  if (item) Object.assign(err, { Item: item });
  return err;
}

/**
 * A cancelled TransactWriteItems: one reason per item of the transaction, in order; `'ok'`
 * stands for the items that did not fail ('None').
 */
export function transactionCancelled(
  codes: readonly ('ConditionalCheckFailed' | 'None' | 'TransactionConflict' | 'ok')[],
): TransactionCanceledException {
  const reasons: CancellationReason[] = codes.map((c) =>
    c === 'ok' || c === 'None' ? { Code: 'None' } : { Code: c, Message: c },
  );
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
    CancellationReasons: reasons,
    ...meta,
  });
}

/** What DynamoDB throws once the SDK's own retries of a throttled request are spent. */
export function throttled(): ProvisionedThroughputExceededException {
  return new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded.',
    ...meta,
  });
}

/** A plain service error of any name (what the other SDK clients throw, by `name`). */
export function serviceError(name: string, message = name, statusCode = 400): Error {
  return Object.assign(new Error(message), {
    name,
    $fault: statusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: statusCode },
  });
}

// ---- the Lambda functions of the route table ------------------------------------------------

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDispatcher } from '../../functions/lib/dispatch';
import { functionsOf, routeKeyOf, type FunctionGroup } from '../../functions/routes';
import type { HttpEvent, HttpResult } from '../../functions/lib/http';
import { httpEvent, lambdaContext } from './events';

const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions/', import.meta.url));

/**
 * The handler a group's Lambda runs: the dispatcher over the group's routes, as the generated
 * bundle entry (lib/lambda-bundles.ts routeFunctionEntry) and the local gateway build it.
 */
export function groupHandler(group: FunctionGroup): (event: HttpEvent) => Promise<HttpResult> {
  const fn = functionsOf().find((f) => f.name === group);
  if (!fn) throw new Error(`no function group ${group}`);
  const dispatch = createDispatcher(
    Object.fromEntries(
      fn.routes.map((r) => [
        routeKeyOf(r),
        () => import(/* @vite-ignore */ path.join(FUNCTIONS_DIR, `${r.handler}.ts`)) as Promise<{ handler?: unknown }>,
      ]),
    ),
  );
  return async (event) => (await dispatch(event, lambdaContext())) as HttpResult;
}

export interface ApiCall {
  /** the path as sent, e.g. /api/requests/abc (defaults to the route's path) */
  readonly rawPath?: string;
  readonly pathParameters?: Record<string, string>;
  readonly query?: string;
  readonly body?: unknown;
  /** the JWT authorizer's claims (`sub`) of a signed-in caller */
  readonly sub?: string;
  readonly headers?: Record<string, string>;
}

/** An API Gateway HTTP API (payload 2.0) event for `routeKey` (e.g. `PATCH /api/requests/{id}`). */
export function apiEvent(routeKey: string, call: ApiCall = {}): HttpEvent {
  const [method, routePath] = routeKey.split(' ') as [string, string];
  const rawPath = call.rawPath ?? routePath;
  const event = httpEvent({ method, path: rawPath });
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return {
    ...event,
    routeKey,
    rawQueryString: call.query ?? '',
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers },
    ...(body !== undefined ? { body } : {}),
    ...(call.pathParameters ? { pathParameters: call.pathParameters } : {}),
    requestContext: {
      ...event.requestContext,
      routeKey,
      authorizer: {
        ...event.requestContext.authorizer,
        jwt: { claims: call.sub ? { sub: call.sub } : {}, scopes: [] },
      },
    },
  } as HttpEvent;
}

/** The JSON body of a handler's answer. */
export function jsonOf(res: HttpResult): { error?: { code: string; message: string } } & Record<string, unknown> {
  return JSON.parse(String(res.body ?? '')) as never;
}
