/**
 * The payments webhook under fuzzing: events drawn from the payments schema
 * (functions/adapters/payments/event-schema.ts: every handled type with the object fields the
 * handler reads), some aimed at a real subscribed account, then mutated (wrong types, huge
 * strings, deep nesting, out-of-range times, missing and extra keys). Each is signed with the
 * webhook secret, as the provider signs, and POSTed through the local gateway: a validly signed
 * event of any shape gets 2xx or 4xx, never a 5xx, and no answer names an internal.
 *
 * A failure prints fast-check's seed and the shrunk event; rerun with FUZZ_SEED=<seed>.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LocalApp } from '../../scripts/local/app';
import { paymentEventSchema } from '../../functions/adapters/payments/event-schema';
import { signatureHeader } from '../../functions/adapters/payments/signature';
import { paymentsConfig } from '../../functions/lib/env';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, json, type TestUser } from '../helpers/transfers';
import { arbitraryOf, jsonSchemaOf, mutated } from '../helpers/schema-arbitrary';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let app: LocalApp;
let user: TestUser;
let customerId: string;
let subscriptionId: string;

beforeAll(async () => {
  app = await startTestApp();
  user = await createUser(app, 'fuzz.payer@example.com', 'free');
  const session = await api(
    app,
    '/stripe/createSubscription',
    json({ price_id: 'price_sim_pro_month', customer_email: user.email, mongo_id: user.sub }, bearer(user)),
  );
  expect(session.status, session.text).toBe(200);
  const pay = await api(
    app,
    '/payments/simulated/checkout',
    json(
      {
        clientSecret: session.json.clientSecret,
        number: '4242 4242 4242 4242',
        expMonth: 12,
        expYear: new Date().getFullYear() + 3,
        cvc: '123',
        name: 'Fuzz Payer',
      },
      bearer(user),
    ),
  );
  expect(pay.status, pay.text).toBe(200);
  const data = await api(app, '/getStripeData', { headers: bearer(user) });
  customerId = data.json.customer.id;
  subscriptionId = data.json.customer.subscriptions.data[0].id;
});

afterAll(async () => {
  await app?.stop();
});

const LEAKS = [
  /\n\s*at .+:\d+:\d+/,
  /node_modules/,
  /DynamoDB|ValidationException|ConditionalCheckFailed/i,
  /\b(TypeError|RangeError|ReferenceError)\b/,
  /Cannot read propert|is not a function/,
  /MAX_SAFE_INTEGER|BigInt/,
];

describe('the payments webhook, fuzzed with signed events built from the payments schema', () => {
  it('answers every validly signed event with 2xx or 4xx, never a 5xx, and names no internal', async () => {
    const now = Math.floor(Date.now() / 1000);
    const seconds = fc.oneof(
      fc.integer({ min: now - 86_400, max: now + 400 * 86_400 }),
      fc.constantFrom(0, 1e15, 253_402_300_799, 253_402_300_800, -1, 1.5, 1e300),
    );
    const hints = {
      // aimed at the real account, so events get past the customer lookup into the state they change
      customer: fc.constantFrom(customerId, 'cus_sim_unknown000000'),
      id: fc.constantFrom(subscriptionId, `evt_fuzz_${now}`),
      subscription: fc.constantFrom(subscriptionId, null),
      metadata: fc.constantFrom({ userId: user.sub }, { role: 'business' }, {}),
      created: seconds,
      trial_end: seconds,
      current_period_end: seconds,
      recurring: fc.constantFrom(null, { interval: 'year' }),
      unit_amount: fc.constantFrom(null, 2900, 0),
    };
    const events = mutated(arbitraryOf(jsonSchemaOf(paymentEventSchema), hints));
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(events, fc.nat(), async (event, n) => {
        // a fresh event id most of the time, so the dedupe does not answer in the handler's place
        const withId =
          event && typeof event === 'object' && !Array.isArray(event) && n % 4 !== 0
            ? { ...(event as object), id: `evt_fuzz_${n}_${Math.random().toString(36).slice(2, 10)}` }
            : event;
        const body = JSON.stringify(withId);
        const signature = signatureHeader(body, paymentsConfig().simulatorWebhookSecret, Math.floor(Date.now() / 1000));
        const res = await api(app, '/stripe/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body,
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${res.status} ${res.text}\n${body.slice(0, 2000)}`).toBeLessThan(500);
        for (const leak of LEAKS) expect(res.text, body.slice(0, 500)).not.toMatch(leak);
      }),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: true },
    );
    // both kinds were reached: events that were applied and events that were refused
    expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
  }, 300_000);
});
