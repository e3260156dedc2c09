/**
 * The server's half of "a retried send never creates two transfers": a create
 * route wraps its work in `idempotent(req, scope, run)`. With an `Idempotency-Key` header, the
 * first call with a key runs and its 2xx answer is kept 24 h; a repeat with the same key and
 * the same request gets that answer again (header `idempotent-replayed: true`) without running;
 * the same key with another request is 422 `idempotency_key_reused`; a repeat while the first
 * is still running is 409 `idempotency_in_progress` with Retry-After. A failed call (an error,
 * a non-2xx answer) gives its key back. Without the header the call simply runs.
 *
 * `scope` names the caller (a user's sub, a guest's verified address, a transfer whose upload
 * token was checked): keys live per caller, so nobody can replay another caller's answer.
 * The routes using it are `KEYED_ROUTES` in functions/domain/retry-policy.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_STALE_MS,
  IDEMPOTENCY_TTL_SECONDS,
} from '../domain/retry-policy';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyRecord,
} from '../data/idempotency';
import { HttpError, badRequest } from '../lib/errors';
import type { HttpEvent, Reply } from '../lib/http';
import { log } from '../lib/log';

/** Answers above this (gzip) are not kept (an item holds at most 400 KB); the key is given back. */
export const MAX_STORED_ANSWER_BYTES = 350_000;

/** The header a replayed answer carries. */
export const REPLAYED_HEADER = 'idempotent-replayed';

interface KeyedRequest {
  readonly event: HttpEvent;
  header(name: string): string | undefined;
}

/** What must be equal for a repeat to be "the same request": route, path and body bytes. */
export function requestHashOf(event: HttpEvent): string {
  const body = event.body
    ? event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body
    : '';
  return createHash('sha256').update(`${event.routeKey}\n${event.rawPath}\n${body}`).digest('base64url');
}

/** The key's first call has not finished yet: the caller may retry in a second. */
function inProgress(): HttpError {
  return new HttpError(
    409,
    'idempotency_in_progress',
    'A request with this Idempotency-Key is still being processed. Try again shortly.',
    undefined,
    { 'retry-after': '1' },
  );
}

/** What a repeat gets, given the record its key already has. */
export function answerFor(existing: IdempotencyRecord, requestHash: string): Reply {
  if (existing.requestHash !== requestHash) {
    throw new HttpError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request.',
    );
  }
  if (existing.state === 'pending') {
    throw inProgress();
  }
  const stored = JSON.parse(gunzipSync(existing.body).toString('utf8')) as { status: number; body?: unknown };
  return {
    status: stored.status,
    ...(stored.body === undefined ? {} : { body: stored.body }),
    headers: { [REPLAYED_HEADER]: 'true' },
  };
}

export async function idempotent(
  req: KeyedRequest,
  scope: string,
  run: () => Promise<Reply>,
  now = Date.now,
): Promise<Reply> {
  const key = req.header(IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return run();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw badRequest('idempotency_key_invalid', 'Idempotency-Key must be 16 to 128 letters, digits, "-" or "_".');
  }
  const requestHash = requestHashOf(req.event);
  const claim = randomUUID();
  // A record can vanish between the refused claim and the read (its call failed and gave the
  // key back): then claim again, once.
  for (let tries = 0; ; tries += 1) {
    const at = now();
    const result = await claimIdempotencyKey(
      scope,
      key,
      { requestHash, claim, ttlSeconds: IDEMPOTENCY_TTL_SECONDS, staleBefore: at - IDEMPOTENCY_STALE_MS },
      at,
    );
    if (result.claimed) break;
    if (result.existing) return answerFor(result.existing, requestHash);
    if (tries >= 1) throw inProgress();
  }

  let reply: Reply;
  try {
    reply = await run();
  } catch (err) {
    await releaseIdempotencyKey(scope, key, claim);
    throw err;
  }
  const status = reply.status ?? 200;
  if (status < 200 || status >= 300 || reply.text !== undefined) {
    await releaseIdempotencyKey(scope, key, claim);
    return reply;
  }
  const stored = gzipSync(JSON.stringify({ status, body: reply.body }));
  if (stored.byteLength > MAX_STORED_ANSWER_BYTES) {
    log.warn('idempotency answer too large to keep', { route: req.event.routeKey, bytes: stored.byteLength });
    await releaseIdempotencyKey(scope, key, claim);
    return reply;
  }
  await completeIdempotencyKey(
    scope,
    key,
    { claim, status, body: new Uint8Array(stored), ttlSeconds: IDEMPOTENCY_TTL_SECONDS },
    now(),
  );
  return reply;
}
