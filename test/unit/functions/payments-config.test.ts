/** The payments configuration: which provider runs, the simulator's webhook, Stripe's prices and secret name. */
import { describe, expect, it } from 'vitest';
import { readPaymentsConfig, SIMULATOR_DEFAULT_WEBHOOK_SECRET } from '../../../functions/lib/env';

const BASE = { APP_ORIGIN: 'https://send.example.com/' };

describe('payments configuration', () => {
  it("runs the simulator by default, delivering to the app origin's webhook with the default local secret", () => {
    expect(readPaymentsConfig(BASE)).toMatchObject({
      provider: 'simulated',
      webhookUrl: 'https://send.example.com/api/stripe/webhook',
      simulatorWebhookSecret: SIMULATOR_DEFAULT_WEBHOOK_SECRET,
      stripePrices: {},
      stripeSecretId: undefined,
    });
    expect(
      readPaymentsConfig({
        ...BASE,
        PAYMENTS_WEBHOOK_URL: 'http://127.0.0.1:3001/api/stripe/webhook',
        PAYMENTS_WEBHOOK_SECRET: 'whsec_x',
      }),
    ).toMatchObject({ webhookUrl: 'http://127.0.0.1:3001/api/stripe/webhook', simulatorWebhookSecret: 'whsec_x' });
  });

  it('never signs with the public local secret inside a Lambda', () => {
    expect(() => readPaymentsConfig({ ...BASE, AWS_LAMBDA_FUNCTION_NAME: 'ApiBilling' })).toThrow(
      /PAYMENTS_WEBHOOK_SECRET is not set: in AWS the payments simulator signs with the secret CDK generates/u,
    );
    expect(
      readPaymentsConfig({ ...BASE, AWS_LAMBDA_FUNCTION_NAME: 'ApiBilling', PAYMENTS_WEBHOOK_SECRET: 'generated' })
        .simulatorWebhookSecret,
    ).toBe('generated');
  });

  it('runs Stripe when asked, with the secret named; asked without one, the configuration does not load', () => {
    const prices = JSON.stringify({ 'pro/month': 'price_1', 'business/year': 'price_2' });
    expect(
      readPaymentsConfig({ ...BASE, PAYMENTS: 'stripe', STRIPE_SECRET_ID: 'sendbridge/stripe', STRIPE_PRICES: prices }),
    ).toMatchObject({
      provider: 'stripe',
      stripeSecretId: 'sendbridge/stripe',
      stripePrices: { 'pro/month': 'price_1', 'business/year': 'price_2' },
    });
    expect(() => readPaymentsConfig({ ...BASE, PAYMENTS: 'stripe' })).toThrow(
      'Environment variable STRIPE_SECRET_ID is not set: PAYMENTS=stripe reads the Stripe keys from the Secrets Manager secret it names',
    );
    expect(() => readPaymentsConfig({ ...BASE, PAYMENTS: 'stripe', STRIPE_SECRET_ID: '' })).toThrow(
      /STRIPE_SECRET_ID is not set/u,
    );
    expect(readPaymentsConfig({ ...BASE, PAYMENTS: 'simulated', STRIPE_SECRET_ID: 'sendbridge/stripe' }).provider).toBe(
      'simulated',
    );
  });

  it('refuses an unknown provider and prices that are not by role/period', () => {
    expect(() => readPaymentsConfig({ ...BASE, PAYMENTS: 'paypal' })).toThrow(/PAYMENTS must be simulated or stripe/u);
    for (const bad of [
      '{oops',
      '[]',
      JSON.stringify({ pro: 'price_1' }),
      JSON.stringify({ 'pro/week': 'price_1' }),
      JSON.stringify({ 'pro/month': '' }),
    ]) {
      expect(() => readPaymentsConfig({ ...BASE, STRIPE_PRICES: bad }), bad).toThrow(/STRIPE_PRICES/u);
    }
    expect(() => readPaymentsConfig({})).toThrow(/APP_ORIGIN/u);
  });
});
