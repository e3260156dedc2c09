/**
 * Throttling of guesses (passwords, codes) that cannot be used to lock someone else out:
 * failures count per (subject, client), and only a client with failures waits, longer after
 * each one; a higher ceiling per subject, across clients, stops distributed guessing. A client
 * without failures may always try, so the right secret from a clean client always gets through.
 */
import {
  addClientFailure,
  clearClientFailures,
  getClientFailures,
  hitRateWindow,
  rateWindowHits,
} from '../data/verification';
import { tooManyRequests } from '../lib/errors';

export interface FailurePolicy {
  /** names the counters: 'login', 'download-password', ... */
  readonly scope: string;
  /** failures a client may make before it must wait */
  readonly freeFailures: number;
  /** the wait after the first failure past the free ones; it doubles with each further failure */
  readonly firstDelaySeconds: number;
  readonly maxDelaySeconds: number;
  /** failures of every client together on one subject, per window; past it only clean clients may try */
  readonly ceiling: { readonly limit: number; readonly windowSeconds: number };
}

/** Seconds a client with `failures` failures waits after its last one. */
export function delayAfter(policy: FailurePolicy, failures: number): number {
  if (failures < policy.freeFailures) return 0;
  const doublings = Math.min(30, failures - policy.freeFailures);
  return Math.min(policy.maxDelaySeconds, policy.firstDelaySeconds * 2 ** doublings);
}

/**
 * Throws 429 (Retry-After) when this client must wait before guessing again on `subject`;
 * otherwise answers the client's failures so far (a success need not clear none).
 */
export async function assertMayTry(
  policy: FailurePolicy,
  subject: string,
  client: string,
  message: string,
  now = Date.now(),
): Promise<number> {
  const mine = await getClientFailures(policy.scope, subject, client, now);
  if (mine.failures === 0) return 0;
  const waitUntil = mine.lastFailureAt + delayAfter(policy, mine.failures) * 1000;
  if (waitUntil > now)
    throw tooManyRequests(
      Math.ceil((waitUntil - now) / 1000),
      message.replace('{minutes}', String(Math.max(1, Math.ceil((waitUntil - now) / 60_000)))),
    );
  const all = await rateWindowHits(`${policy.scope}-failures`, subject, policy.ceiling.windowSeconds, now);
  if (all >= policy.ceiling.limit) {
    const windowMs = policy.ceiling.windowSeconds * 1000;
    const retry = Math.max(1, Math.ceil((Math.floor(now / windowMs) * windowMs + windowMs - now) / 1000));
    throw tooManyRequests(retry, message.replace('{minutes}', String(Math.max(1, Math.ceil(retry / 60)))));
  }
  return mine.failures;
}

export async function recordFailure(
  policy: FailurePolicy,
  subject: string,
  client: string,
  now = Date.now(),
): Promise<void> {
  const keep = Math.max(policy.maxDelaySeconds, policy.ceiling.windowSeconds) * 2;
  await Promise.all([
    addClientFailure(policy.scope, subject, client, keep, now),
    // Counted without a limit: the ceiling is checked before a guess, never refuses the record.
    hitRateWindow(`${policy.scope}-failures`, subject, Number.MAX_SAFE_INTEGER, policy.ceiling.windowSeconds, now),
  ]);
}

export async function recordSuccess(policy: FailurePolicy, subject: string, client: string): Promise<void> {
  await clearClientFailures(policy.scope, subject, client);
}
