/**
 * Stripe's webhook signature as the simulator signs it and both providers' webhooks check it
 * (functions/adapters/payments/signature.ts): valid, tampered, too old, missing header, wrong
 * secret; and that the header is byte-for-byte what Stripe's own SDK accepts.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { WebhookError } from '../../../functions/adapters/payments/provider';
import { computeSignature, signatureHeader, verifySignedPayload } from '../../../functions/adapters/payments/signature';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../../functions/domain/billing-api';

const SECRET = 'whsec_test_secret';
const event = {
  id: 'evt_sim_1',
  object: 'event',
  type: 'invoice.paid',
  created: 1_800_000_000,
  data: { object: { id: 'in_sim_1', object: 'invoice', amount_paid: 2900 } },
};
const body = JSON.stringify(event, null, 2);
const now = 1_800_000_500;

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (err) {
    return err instanceof WebhookError ? err.code : String(err);
  }
}

describe('Stripe-Signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const header = signatureHeader(body, SECRET, now);
    const expected = createHmac('sha256', SECRET).update(`${now}.${body}`).digest('hex');
    expect(header).toBe(`t=${now},v1=${expected}`);
    expect(computeSignature(now, body, SECRET)).toBe(expected);
  });

  it('accepts a valid signature and returns the event', () => {
    expect(verifySignedPayload(body, signatureHeader(body, SECRET, now), SECRET, now)).toEqual(event);
    // within the tolerance either way, and with several v1 entries (a secret being rolled)
    expect(
      codeOf(() =>
        verifySignedPayload(body, signatureHeader(body, SECRET, now - WEBHOOK_TOLERANCE_SECONDS), SECRET, now),
      ),
    ).toBe('accepted');
    const rolled = `t=${now},v1=${computeSignature(now, body, 'whsec_old')},v1=${computeSignature(now, body, SECRET)}`;
    expect(codeOf(() => verifySignedPayload(body, rolled, SECRET, now))).toBe('accepted');
  });

  it('refuses a tampered body, a wrong secret, a missing or unreadable header', () => {
    const header = signatureHeader(body, SECRET, now);
    expect(codeOf(() => verifySignedPayload(body.replace('2900', '1'), header, SECRET, now))).toBe('invalid_signature');
    expect(codeOf(() => verifySignedPayload(body, signatureHeader(body, 'whsec_other', now), SECRET, now))).toBe(
      'invalid_signature',
    );
    expect(codeOf(() => verifySignedPayload(body, undefined, SECRET, now))).toBe('invalid_signature');
    expect(codeOf(() => verifySignedPayload(body, '', SECRET, now))).toBe('invalid_signature');
    expect(codeOf(() => verifySignedPayload(body, `t=${now}`, SECRET, now))).toBe('invalid_signature');
    expect(codeOf(() => verifySignedPayload(body, `v1=${computeSignature(now, body, SECRET)}`, SECRET, now))).toBe(
      'invalid_signature',
    );
    // a signature for another timestamp than the one in the header
    expect(
      codeOf(() => verifySignedPayload(body, `t=${now + 1},v1=${computeSignature(now, body, SECRET)}`, SECRET, now)),
    ).toBe('invalid_signature');
  });

  it('refuses a valid signature older (or newer) than the tolerance', () => {
    expect(
      codeOf(() =>
        verifySignedPayload(body, signatureHeader(body, SECRET, now - WEBHOOK_TOLERANCE_SECONDS - 1), SECRET, now),
      ),
    ).toBe('signature_too_old');
    expect(
      codeOf(() =>
        verifySignedPayload(body, signatureHeader(body, SECRET, now + WEBHOOK_TOLERANCE_SECONDS + 1), SECRET, now),
      ),
    ).toBe('signature_too_old');
  });

  it('refuses a signed payload that is not an event', () => {
    for (const raw of ['not json', '[]', '{"id":"evt_1"}', JSON.stringify({ ...event, object: 'invoice' })]) {
      expect(
        codeOf(() => verifySignedPayload(raw, signatureHeader(raw, SECRET, now), SECRET, now)),
        raw,
      ).toBe('invalid_event');
    }
  });

  it("is what Stripe's SDK accepts (the simulator's events verify as Stripe's would)", async () => {
    const stripe = new Stripe('sk_test_x', { httpClient: Stripe.createFetchHttpClient() });
    const wall = Math.floor(Date.now() / 1000);
    const verified = await stripe.webhooks.constructEventAsync(
      body,
      signatureHeader(body, SECRET, wall),
      SECRET,
      WEBHOOK_TOLERANCE_SECONDS,
    );
    expect(verified.id).toBe('evt_sim_1');
    await expect(
      stripe.webhooks.constructEventAsync(body, signatureHeader(body, 'whsec_other', wall), SECRET),
    ).rejects.toThrow();
  });
});
