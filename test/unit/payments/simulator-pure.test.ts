/**
 * The simulator's pure parts: its built-in prices (spec §9), the card checks in Stripe's words,
 * and billing-period arithmetic. Its stateful behaviour is in test/integration/payments-simulator.test.ts.
 */
import { randomSecret, simId } from '../../../functions/adapters/payments/simulated/store';
import { describe, expect, it } from 'vitest';
import { CardError } from '../../../functions/adapters/payments/provider';
import { brandOf, checkCard, luhnValid } from '../../../functions/adapters/payments/simulated/cards';
import { discounted, SIM_PRICES } from '../../../functions/adapters/payments/simulated/prices';
import { addInterval } from '../../../functions/adapters/payments/simulated/simulator';

const NOW = Date.UTC(2026, 10, 25) / 1000;
const card = (number: string, over: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  ...over,
});
const refusal = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof CardError
      ? { code: err.code, message: err.message, decline: err.declineCode ?? null }
      : String(err);
  }
};

describe('built-in prices', () => {
  it('are the published plans, monthly and yearly, with role metadata and nicknames', () => {
    expect(SIM_PRICES.map((p) => [p.id, p.unit_amount, p.nickname, p.metadata.role, p.recurring.interval])).toEqual([
      ['price_sim_personal_month', 1200, 'Personal monthly', 'personal', 'month'],
      ['price_sim_personal_year', 10800, 'Personal yearly', 'personal', 'year'],
      ['price_sim_pro_month', 2900, 'Pro monthly', 'pro', 'month'],
      ['price_sim_pro_year', 22800, 'Pro yearly', 'pro', 'year'],
      ['price_sim_business_month', 6900, 'Business monthly', 'business', 'month'],
      ['price_sim_business_year', 58800, 'Business yearly', 'business', 'year'],
    ]);
  });

  it('coupons take a percentage or an amount off, never below zero', () => {
    expect(discounted(2900, { percent_off: 20, amount_off: null })).toBe(2320);
    expect(discounted(2900, { percent_off: null, amount_off: 500 })).toBe(2400);
    expect(discounted(300, { percent_off: null, amount_off: 500 })).toBe(0);
    expect(discounted(2900, null)).toBe(2900);
  });
});

describe('test cards', () => {
  it('Luhn and brands', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(
      [
        '4242424242424242',
        '5555555555554444',
        '2223003122003222',
        '378282246310005',
        '6011111111111117',
        '3056930009020004',
        '3566002020360505',
        '6200000000000005',
      ].map(brandOf),
    ).toEqual(['visa', 'mastercard', 'mastercard', 'amex', 'discover', 'diners', 'jcb', 'unionpay']);
  });

  it('4242 pays, 0341 attaches and fails later, 0002 is declined at once', () => {
    expect(checkCard(card('4242 4242 4242 4242'), NOW)).toMatchObject({
      behaviour: 'succeeds',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
    });
    expect(checkCard(card('4000-0000-0000-0341'), NOW)).toMatchObject({
      behaviour: 'attach_then_fail',
      card: { last4: '0341' },
    });
    expect(refusal(() => checkCard(card('4000000000000002'), NOW))).toEqual({
      code: 'card_declined',
      message: 'Your card was declined.',
      decline: 'generic_decline',
    });
    expect(refusal(() => checkCard(card('4111111111111111'), NOW))).toMatchObject({
      code: 'card_declined',
      decline: 'test_mode_live_card',
    });
  });

  it("checks format, Luhn, expiry (at the simulator's now) and CVC in Stripe's words", () => {
    expect(refusal(() => checkCard(card('4242'), NOW))).toMatchObject({ code: 'invalid_number' });
    expect(refusal(() => checkCard(card('4242424242424241'), NOW))).toMatchObject({
      code: 'incorrect_number',
      message: 'Your card number is incorrect.',
    });
    expect(refusal(() => checkCard(card('4242424242424242', { expYear: 2025 }), NOW))).toMatchObject({
      code: 'invalid_expiry_year',
      message: "Your card's expiration year is invalid.",
    });
    expect(refusal(() => checkCard(card('4242424242424242', { expYear: 2026, expMonth: 10 }), NOW))).toMatchObject({
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
    });
    expect(refusal(() => checkCard(card('4242424242424242', { expYear: 2026, expMonth: 11 }), NOW))).toBeNull();
    expect(refusal(() => checkCard(card('4242424242424242', { expYear: 30 }), NOW))).toBeNull();
    expect(refusal(() => checkCard(card('4242424242424242', { cvc: '12' }), NOW))).toMatchObject({
      code: 'invalid_cvc',
      message: "Your card's security code is invalid.",
    });
    expect(refusal(() => checkCard(card('4242424242424242', { cvc: '12a' }), NOW))).toMatchObject({
      code: 'invalid_cvc',
    });
    expect(refusal(() => checkCard(card('4242424242424242', { cvc: '1234' }), NOW))).toBeNull();
  });
});

describe('billing periods', () => {
  const at = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 10, 30) / 1000;
  it('add a calendar month or year, keeping the day where the month has it', () => {
    expect(addInterval(at(2026, 1, 15), 'month')).toBe(at(2026, 2, 15));
    expect(addInterval(at(2026, 1, 31), 'month')).toBe(at(2026, 2, 28));
    expect(addInterval(at(2028, 1, 31), 'month')).toBe(at(2028, 2, 29));
    expect(addInterval(at(2026, 12, 31), 'month')).toBe(at(2027, 1, 31));
    expect(addInterval(at(2028, 2, 29), 'year')).toBe(at(2029, 2, 28));
    expect(addInterval(at(2026, 11, 25), 'year')).toBe(at(2027, 11, 25));
  });
});

describe('simulated ids', () => {
  it('sort in the order they were made (a customer list keyed by second, then id, stays newest first within a second)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(simId('sub'));
      await new Promise((r) => setTimeout(r, 3));
    }
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^sub_sim_[A-Za-z0-9]{16}$/u);
    expect(randomSecret()).toMatch(/^[A-Za-z0-9]{24}$/u);
  });
});
