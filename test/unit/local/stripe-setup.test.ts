/**
 * `npm run stripe:setup`'s request plan, through the real `stripe` SDK over a recording fetch
 * (test/helpers/stripe-recorder.ts): an empty account gets three products and six prices with
 * lookup keys; a second run creates nothing; a price whose amount changed is replaced by one
 * that takes over its lookup key.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { setUpStripeCatalogue, wantedPrices } from '../../../scripts/local/stripe-setup';
import { list, price, stripeRecorder } from '../../helpers/stripe-recorder';

const client = (rec: ReturnType<typeof stripeRecorder>) =>
  new Stripe('sk_test_setup', { httpClient: Stripe.createFetchHttpClient(rec.fetch), maxNetworkRetries: 0 });

describe('npm run stripe:setup', () => {
  it('wants personal 12 / 108, pro 29 / 228, business 69 / 588 USD (spec §9)', () => {
    expect(wantedPrices().map((w) => [w.lookupKey, w.amount, w.nickname])).toEqual([
      ['sendbridge_personal_month', 1200, 'Personal monthly'],
      ['sendbridge_personal_year', 10800, 'Personal yearly'],
      ['sendbridge_pro_month', 2900, 'Pro monthly'],
      ['sendbridge_pro_year', 22800, 'Pro yearly'],
      ['sendbridge_business_month', 6900, 'Business monthly'],
      ['sendbridge_business_year', 58800, 'Business yearly'],
    ]);
  });

  it('creates the products and prices in an empty account and prints STRIPE_PRICES', async () => {
    const rec = stripeRecorder();
    let n = 0;
    rec.on('GET /v1/prices', { body: list([]) });
    rec.on('GET /v1/products', { body: list([]) });
    rec.on('POST /v1/products', (req) => ({
      body: { id: `prod_${req.form['metadata[role]']}`, object: 'product', name: req.form.name },
    }));
    rec.on('POST /v1/prices', () => ({ body: { id: `price_new_${++n}`, object: 'price' } }));
    const report = await setUpStripeCatalogue(client(rec));
    expect(rec.lines()).toEqual([
      'GET /v1/prices',
      'GET /v1/products',
      'POST /v1/products',
      'POST /v1/prices',
      'POST /v1/prices',
      'POST /v1/products',
      'POST /v1/prices',
      'POST /v1/prices',
      'POST /v1/products',
      'POST /v1/prices',
      'POST /v1/prices',
    ]);
    expect(rec.requests[0]!.query).toEqual({
      'lookup_keys[0]': 'sendbridge_personal_month',
      'lookup_keys[1]': 'sendbridge_personal_year',
      'lookup_keys[2]': 'sendbridge_pro_month',
      'lookup_keys[3]': 'sendbridge_pro_year',
      'lookup_keys[4]': 'sendbridge_business_month',
      'lookup_keys[5]': 'sendbridge_business_year',
      active: 'true',
      limit: '100',
    });
    expect(rec.requests[2]!.form).toEqual({
      name: 'SendBridge Personal',
      'metadata[sendbridge_role]': 'personal',
      'metadata[role]': 'personal',
    });
    expect(rec.requests[2]!.headers.get('idempotency-key')).toBe('sendbridge-product-personal');
    expect(rec.requests[3]!.form).toEqual({
      product: 'prod_personal',
      currency: 'usd',
      unit_amount: '1200',
      'recurring[interval]': 'month',
      lookup_key: 'sendbridge_personal_month',
      nickname: 'Personal monthly',
      'metadata[role]': 'personal',
    });
    expect(rec.requests[10]!.form).toMatchObject({
      product: 'prod_business',
      unit_amount: '58800',
      'recurring[interval]': 'year',
      lookup_key: 'sendbridge_business_year',
    });
    expect(report.prices).toEqual({
      'personal/month': 'price_new_1',
      'personal/year': 'price_new_2',
      'pro/month': 'price_new_3',
      'pro/year': 'price_new_4',
      'business/month': 'price_new_5',
      'business/year': 'price_new_6',
    });
    expect(report.created).toHaveLength(9);
  });

  it('creates nothing when every price is there; replaces a price whose amount changed, moving its lookup key', async () => {
    const rec = stripeRecorder();
    const have = wantedPrices().map((w) => ({
      ...price(`price_${w.role}_${w.period}`, w.role, w.period, w.amount, w.nickname),
      lookup_key: w.lookupKey,
      product: `prod_${w.role}`,
    }));
    rec.on('GET /v1/prices', { body: list(have) });
    const again = await setUpStripeCatalogue(client(rec));
    expect(rec.lines()).toEqual(['GET /v1/prices']);
    expect(again.created).toEqual([]);
    expect(again.prices['pro/year']).toBe('price_pro_year');

    const rec2 = stripeRecorder();
    rec2.on('GET /v1/prices', {
      body: list(have.map((p) => (p.lookup_key === 'sendbridge_pro_month' ? { ...p, unit_amount: 2500 } : p))),
    });
    rec2.on('POST /v1/prices', { body: { id: 'price_pro_month_v2', object: 'price' } });
    const changed = await setUpStripeCatalogue(client(rec2));
    expect(rec2.lines()).toEqual(['GET /v1/prices', 'POST /v1/prices']);
    expect(rec2.requests[1]!.form).toMatchObject({
      product: 'prod_pro',
      unit_amount: '2900',
      lookup_key: 'sendbridge_pro_month',
      transfer_lookup_key: 'true',
    });
    expect(changed.prices['pro/month']).toBe('price_pro_month_v2');
  });

  it('reuses products found by their role metadata', async () => {
    const rec = stripeRecorder();
    let n = 0;
    rec.on('GET /v1/prices', { body: list([]) });
    rec.on('GET /v1/products', {
      body: list([{ id: 'prod_old_pro', object: 'product', metadata: { sendbridge_role: 'pro' } }]),
    });
    rec.on('POST /v1/products', (req) => ({ body: { id: `prod_${req.form['metadata[role]']}`, object: 'product' } }));
    rec.on('POST /v1/prices', () => ({ body: { id: `price_${++n}`, object: 'price' } }));
    await setUpStripeCatalogue(client(rec));
    expect(
      rec.requests.filter((r) => r.path === '/v1/products' && r.method === 'POST').map((r) => r.form['metadata[role]']),
    ).toEqual(['personal', 'business']);
    expect(
      rec.requests.filter((r) => r.path === '/v1/prices' && r.method === 'POST' && r.form.product === 'prod_old_pro'),
    ).toHaveLength(2);
  });
});
