import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backoffMs, RETRY_WINDOW_MS } from '../../../functions/domain/webhooks-api';
import { deliveryHeaders, signatureOf } from '../../../functions/services/webhooks';

describe('webhook signatures and backoff', () => {
  const event = { id: 'evt_1', type: 'ping' as const, body: '{"id":"evt_1","type":"ping"}' };

  it('signs `${timestamp}.${body}` with HMAC-SHA256 of the endpoint secret', () => {
    const now = 1_700_000_000_123;
    const h = deliveryHeaders({ secret: 'whsec_a' }, event, now);
    expect(h['sendbridge-timestamp']).toBe('1700000000');
    expect(h['sendbridge-event-id']).toBe('evt_1');
    const expected = createHmac('sha256', 'whsec_a').update(`1700000000.${event.body}`).digest('hex');
    expect(h['sendbridge-signature']).toBe(`v1=${expected}`);
    expect(signatureOf('whsec_a', 1700000000, event.body)).toBe(expected);
  });

  it('adds the previous secret’s signature during the grace period only', () => {
    const now = 1_700_000_000_000;
    const during = deliveryHeaders({ secret: 'new', previousSecret: 'old', previousSecretExpiresAt: now + 1000 }, event, now);
    expect(during['sendbridge-signature']).toBe(`v1=${signatureOf('new', 1700000000, event.body)} v1=${signatureOf('old', 1700000000, event.body)}`);
    const after = deliveryHeaders({ secret: 'new', previousSecret: 'old', previousSecretExpiresAt: now }, event, now);
    expect(after['sendbridge-signature']).toBe(`v1=${signatureOf('new', 1700000000, event.body)}`);
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
