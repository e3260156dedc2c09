/**
 * /thankyou2 waits for the provider's webhook to land (the user's subscription turns trialing
 * or active) by asking GET /getStripeData every second, for about 20 seconds at most.
 */
import type { StripeDataResponse, SubscriptionStatus } from '@domain/billing-api';

export const CONFIRM_POLL_MS = 1_000;
export const CONFIRM_GIVE_UP_MS = 20_000;

export type Confirmation = 'waiting' | 'confirmed' | 'still_confirming';

const CONFIRMED: readonly SubscriptionStatus[] = ['trialing', 'active'];

export function isConfirmed(data: Pick<StripeDataResponse, 'view'> | null): boolean {
  return data !== null && CONFIRMED.includes(data.view.status);
}

/** The page's state after an answer (or none yet) at `elapsedMs` since it started waiting. */
export function confirmation(data: Pick<StripeDataResponse, 'view'> | null, elapsedMs: number): Confirmation {
  if (isConfirmed(data)) return 'confirmed';
  return elapsedMs >= CONFIRM_GIVE_UP_MS ? 'still_confirming' : 'waiting';
}

export interface PollDeps {
  fetch(signal: AbortSignal): Promise<StripeDataResponse>;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * Asks until the subscription is confirmed or the time is up; reports each state. Failed
 * requests count as 'not yet' (the webhook may land a moment later).
 */
export async function pollConfirmation(
  deps: PollDeps,
  signal: AbortSignal,
  report: (state: Confirmation, data: StripeDataResponse | null) => void,
): Promise<void> {
  const started = deps.now();
  let last: StripeDataResponse | null = null;
  for (;;) {
    try {
      last = await deps.fetch(signal);
    } catch {
      if (signal.aborted) return;
    }
    if (signal.aborted) return;
    const state = confirmation(last, deps.now() - started);
    report(state, last);
    if (state !== 'waiting') return;
    await deps.sleep(CONFIRM_POLL_MS, signal);
    if (signal.aborted) return;
  }
}
