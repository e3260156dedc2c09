import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { backoffMs, RETRY_WINDOW_MS } from '../../../functions/domain/webhooks-api';
import {
  deliveryHeaders,
  isLegacySecret,
  signatureOf,
  signingKeyOf,
  standardSecretOf,
} from '../../../functions/services/webhooks';
import { newWebhookSecret } from '../../../functions/services/webhook-ids';

describe('webhook signatures (Standard Webhooks) and backoff', () => {
  const event = { id: 'evt_1', type: 'ping' as const, body: '{"id":"evt_1","type":"ping"}' };
  const SECRET = newWebhookSecret();
  const OLD = newWebhookSecret();

  it("reproduces the Standard Webhooks specification's own test vector", () => {
    expect(
      signatureOf(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('sends webhook-id, webhook-timestamp and webhook-signature (v1,<base64>), which the official library verifies', () => {
    expect(SECRET).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    const now = Date.now();
    const h = deliveryHeaders({ secret: SECRET }, event, now);
    expect(h).toEqual({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(now / 1000)),
      'webhook-signature': `v1,${signatureOf(SECRET, 'evt_1', Math.floor(now / 1000), event.body)}`,
      'sendbridge-event-type': 'ping',
    });
    expect(new Webhook(SECRET).verify(event.body, h)).toEqual({ id: 'evt_1', type: 'ping' });
    expect(() => new Webhook(newWebhookSecret()).verify(event.body, h)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(SECRET).verify(event.body.replace('ping', 'pong'), h)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(SECRET).verify(event.body, { ...h, 'webhook-id': 'evt_2' })).toThrow(
      WebhookVerificationError,
    );
  });

  it('signs with every valid secret, space-separated, during the grace period only', () => {
    const now = Date.now();
    const during = deliveryHeaders(
      { secret: SECRET, previousSecret: OLD, previousSecretExpiresAt: now + 1000 },
      event,
      now,
    );
    expect(during['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(SECRET).verify(event.body, during)).toBeTruthy();
    expect(new Webhook(OLD).verify(event.body, during)).toBeTruthy();
    const after = deliveryHeaders({ secret: SECRET, previousSecret: OLD, previousSecretExpiresAt: now }, event, now);
    expect(after['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(OLD).verify(event.body, after)).toThrow(WebhookVerificationError);
  });

  it('keeps an endpoint with a secret from before working: the old headers too, and the same key in standard form', () => {
    const legacy = `whsec_${randomBytes(32).toString('base64url')}`;
    expect(isLegacySecret(legacy)).toBe(true);
    expect(isLegacySecret(SECRET)).toBe(false);
    const now = 1_700_000_000_123;
    const h = deliveryHeaders({ secret: legacy }, event, now);
    // the old scheme, as receivers written for it check it
    expect(h['sendbridge-event-id']).toBe('evt_1');
    expect(h['sendbridge-timestamp']).toBe('1700000000');
    expect(h['sendbridge-signature']).toBe(
      `v1=${createHmac('sha256', legacy).update(`1700000000.${event.body}`).digest('hex')}`,
    );
    // the standard one, with the same 32 bytes written as Standard Webhooks libraries read them
    const standard = standardSecretOf(legacy);
    expect(standard).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    expect(signingKeyOf(standard).equals(signingKeyOf(legacy))).toBe(true);
    expect(h['webhook-signature']).toBe(`v1,${signatureOf(standard, 'evt_1', 1700000000, event.body)}`);
    // rotated to a standard secret: the old headers go once the legacy secret's grace ends
    const rotated = deliveryHeaders(
      { secret: SECRET, previousSecret: legacy, previousSecretExpiresAt: now + 1 },
      event,
      now,
    );
    expect(rotated['sendbridge-signature']!.split(' ')).toHaveLength(1);
    expect(
      deliveryHeaders({ secret: SECRET, previousSecret: legacy, previousSecretExpiresAt: now }, event, now)[
        'sendbridge-signature'
      ],
    ).toBeUndefined();
  });

  it('backs off exponentially from 30 s to an hour, with jitter, and fits many attempts in 24 h', () => {
    expect(backoffMs(1, 0.5)).toBe(30_000);
    expect(backoffMs(2, 0.5)).toBe(60_000);
    expect(backoffMs(5, 0.5)).toBe(480_000);
    expect(backoffMs(20, 0.5)).toBe(3_600_000);
    expect(backoffMs(1, 0)).toBe(24_000);
    expect(backoffMs(1, 0.999999)).toBeLessThanOrEqual(36_000);
    let elapsed = 0;
    let attempts = 1;
    while (elapsed + backoffMs(attempts, 0.5) <= RETRY_WINDOW_MS) elapsed += backoffMs(attempts++, 0.5);
    expect(attempts).toBeGreaterThan(25);
  });
});
