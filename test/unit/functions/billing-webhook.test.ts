/**
 * The webhook's paths that end before the table: the provider's verification is
 * stubbed here (its signature code has its own tests); what is tested is how handleWebhook answers
 * a refusal and which events it leaves alone. The paths that change a user run against the
 * simulator and DynamoDB Local in test/integration/billing.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { WebhookError, type PaymentEvent, type PaymentsProvider } from '../../../functions/adapters/payments/provider';
import { billingConfig, handleWebhook, newSumoCode, normalizeSumoCode } from '../../../functions/services/billing';
import { HttpError } from '../../../functions/lib/errors';

function provider(verify: PaymentsProvider['verifyWebhook']): {
  provider: PaymentsProvider;
  other: ReturnType<typeof vi.fn>;
} {
  const other = vi.fn(async () => {
    throw new Error('the provider must not be asked anything else');
  });
  const p = {
    name: 'simulated',
    publishableKey: null,
    prices: other,
    createCheckoutSession: other,
    retrieveCheckoutSession: other,
    retrieveCustomer: other,
    createSetupIntent: other,
    setDefaultPaymentMethod: other,
    changePrice: other,
    setCancelAtPeriodEnd: other,
    refundAndCancel: other,
    listInvoices: other,
    verifyWebhook: verify,
  } as unknown as PaymentsProvider;
  return { provider: p, other };
}

describe('handleWebhook before the table', () => {
  it.each(['invalid_signature', 'signature_too_old', 'invalid_event'] as const)(
    'a %s refusal is a 400 with that code',
    async (code) => {
      const { provider: p, other } = provider(async () => {
        throw new WebhookError(code, 'refused');
      });
      const err = await handleWebhook(p, '{}', 't=1,v1=00', Date.now()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ statusCode: 400, code });
      expect(other).not.toHaveBeenCalled();
    },
  );

  it('passes the raw body, the header and the time in seconds to the provider', async () => {
    const verify = vi.fn(
      async () =>
        ({ id: 'evt_1', object: 'event', type: 'customer.created', created: 1, data: { object: {} } }) as PaymentEvent,
    );
    const { provider: p } = provider(verify);
    await handleWebhook(p, '{"raw": true}', 'sig', 1_700_000_000_999);
    expect(verify).toHaveBeenCalledWith('{"raw": true}', 'sig', 1_700_000_000);
  });

  it('acknowledges an event type it does not handle and changes nothing', async () => {
    const event = { id: 'evt_2', object: 'event', type: 'customer.created', created: 1, data: { object: {} } };
    const { provider: p, other } = provider(async () => event as unknown as PaymentEvent);
    await expect(handleWebhook(p, '{}', 'sig', Date.now())).resolves.toEqual({ received: true });
    expect(other).not.toHaveBeenCalled();
  });

  it.each([
    ['an event without an id', { id: '', object: 'event', type: 'invoice.paid', created: 1, data: { object: {} } }],
    [
      'an event without an object',
      { id: 'evt_3', object: 'event', type: 'invoice.paid', created: 1, data: { object: null } },
    ],
    [
      'an invoice without its customer',
      {
        id: 'evt_4',
        object: 'event',
        type: 'invoice.paid',
        created: 1,
        data: { object: { id: 'in_1', object: 'invoice', amount_paid: 0 } },
      },
    ],
    [
      'a subscription item without a price',
      {
        id: 'evt_5',
        object: 'event',
        type: 'customer.subscription.updated',
        created: 1,
        data: {
          object: { id: 'sub_1', object: 'subscription', customer: 'cus_1', status: 'active', items: { data: [{}] } },
        },
      },
    ],
    [
      'a time no date can hold',
      { id: 'evt_6', object: 'event', type: 'customer.created', created: 1e15, data: { object: {} } },
    ],
  ])('refuses %s as invalid_event, before asking the provider or the table anything', async (_label, event) => {
    const { provider: p, other } = provider(async () => event as unknown as PaymentEvent);
    await expect(handleWebhook(p, '{}', 'sig', Date.now())).rejects.toMatchObject({
      statusCode: 400,
      code: 'invalid_event',
    });
    expect(other).not.toHaveBeenCalled();
  });
});

describe('lifetime codes', () => {
  it('look like SB-XXXX-XXXX-XXXX-XXXX without look-alike letters, and differ', () => {
    const codes = Array.from({ length: 200 }, newSumoCode);
    for (const c of codes) expect(c).toMatch(/^SB(-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{4}){4}$/u);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('are compared without case, spaces or dashes', () => {
    expect(normalizeSumoCode(' sb-abcd efgh-2345 6789 ')).toBe('SBABCDEFGH23456789');
  });
});

describe('billingConfig', () => {
  it('reads the publishable key after the prices, when a Stripe provider has loaded its keys', async () => {
    // A Stripe provider's keys (publishable key included) arrive with its first call.
    let key: string | null = null;
    const p = {
      name: 'stripe',
      get publishableKey() {
        return key;
      },
      prices: async () => {
        key = 'pk_test_123';
        return [
          { priceId: 'price_1', role: 'pro', period: 'month', amount: 29, currency: 'usd', nickname: 'Pro monthly' },
        ];
      },
    } as unknown as PaymentsProvider;
    const config = await billingConfig(p);
    expect(config.publishableKey).toBe('pk_test_123');
    expect(config.provider).toBe('stripe');
    expect(config.prices.map((x) => x.priceId)).toEqual(['price_1']);
  });
});
