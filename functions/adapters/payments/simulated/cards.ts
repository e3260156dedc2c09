/**
 * The simulator's card field, checked the way Stripe checks a card in test mode, with Stripe's
 * codes and words (https://docs.stripe.com/testing): format, Luhn, expiry, CVC, then the test
 * card's behaviour. Any other valid number is a live card, which test mode declines.
 */
import { CardError, type PaymentCard } from '../provider';

/** How a test card behaves once it is on file. */
export type CardBehaviour =
  /** every charge succeeds */
  | 'succeeds'
  /** attaches (a checkout or setup succeeds) but every later charge fails (4000 0000 0000 0341) */
  | 'attach_then_fail';

export interface CheckedCard {
  readonly card: PaymentCard;
  readonly behaviour: CardBehaviour;
  readonly fingerprint: string;
}

export interface CardFields {
  readonly number: string;
  readonly expMonth: number;
  readonly expYear: number;
  readonly cvc: string;
}

const DECLINED = (declineCode: string, message = 'Your card was declined.') =>
  new CardError('card_declined', message, declineCode);

/** Test numbers that fail when entered, as Stripe words them. */
const FAILING: Readonly<Record<string, () => CardError>> = {
  '4000000000000002': () => DECLINED('generic_decline'),
  '4000000000009995': () => DECLINED('insufficient_funds', 'Your card has insufficient funds.'),
  '4000000000009987': () => DECLINED('lost_card'),
  '4000000000009979': () => DECLINED('stolen_card'),
  '4000000000000069': () => new CardError('expired_card', 'Your card has expired.', 'expired_card'),
  '4000000000000127': () => new CardError('incorrect_cvc', "Your card's security code is incorrect.", 'incorrect_cvc'),
  '4000000000000119': () =>
    new CardError(
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
      'processing_error',
    ),
};

/** Test numbers that attach, and how they behave afterwards. */
const WORKING: Readonly<Record<string, CardBehaviour>> = {
  '4242424242424242': 'succeeds',
  '4000056655665556': 'succeeds',
  '5555555555554444': 'succeeds',
  '2223003122003222': 'succeeds',
  '5200828282828210': 'succeeds',
  '378282246310005': 'succeeds',
  '371449635398431': 'succeeds',
  '6011111111111117': 'succeeds',
  '3056930009020004': 'succeeds',
  '36227206271667': 'succeeds',
  '3566002020360505': 'succeeds',
  '6200000000000005': 'succeeds',
  '4000000000000341': 'attach_then_fail',
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Stripe's brand names (payment_method.card.brand). */
export function brandOf(digits: string): string {
  const n2 = Number(digits.slice(0, 2));
  const n3 = Number(digits.slice(0, 3));
  const n4 = Number(digits.slice(0, 4));
  if (digits.startsWith('4')) return 'visa';
  if ((n2 >= 51 && n2 <= 55) || (n4 >= 2221 && n4 <= 2720)) return 'mastercard';
  if (n2 === 34 || n2 === 37) return 'amex';
  if (digits.startsWith('6011') || n2 === 65 || (n3 >= 644 && n3 <= 649)) return 'discover';
  if (n2 === 36 || n2 === 38 || n2 === 39 || (n3 >= 300 && n3 <= 305)) return 'diners';
  if (n4 >= 3528 && n4 <= 3589) return 'jcb';
  if (n2 === 62) return 'unionpay';
  return 'unknown';
}

/**
 * Checks a card as entered, at the simulator's `now` (epoch seconds). Throws the CardError
 * Stripe would answer; returns the card and its behaviour otherwise.
 */
export function checkCard(fields: CardFields, nowSeconds: number): CheckedCard {
  const digits = fields.number.replace(/[\s-]/gu, '');
  if (!/^\d{12,19}$/u.test(digits))
    throw new CardError('invalid_number', 'Your card number is not a valid credit card number.');
  if (!luhnValid(digits)) throw new CardError('incorrect_number', 'Your card number is incorrect.');
  const now = new Date(nowSeconds * 1000);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const expYear = fields.expYear < 100 ? 2000 + fields.expYear : fields.expYear;
  if (!Number.isInteger(fields.expMonth) || fields.expMonth < 1 || fields.expMonth > 12) {
    throw new CardError('invalid_expiry_month', "Your card's expiration month is invalid.");
  }
  if (!Number.isInteger(expYear) || expYear < year || expYear > year + 50)
    throw new CardError('invalid_expiry_year', "Your card's expiration year is invalid.");
  if (expYear === year && fields.expMonth < month)
    throw new CardError('invalid_expiry_month', "Your card's expiration month is invalid.");
  // 3 or 4 digits whatever the brand, as Stripe's card element accepts them in test mode.
  if (!/^\d{3,4}$/u.test(fields.cvc.trim()))
    throw new CardError('invalid_cvc', "Your card's security code is invalid.");
  const brand = brandOf(digits);
  const failing = FAILING[digits];
  if (failing) throw failing();
  const behaviour = WORKING[digits];
  if (!behaviour) {
    throw DECLINED(
      'test_mode_live_card',
      'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
    );
  }
  return {
    card: { brand, last4: digits.slice(-4), exp_month: fields.expMonth, exp_year: expYear },
    behaviour,
    fingerprint: digits.slice(0, 6) + digits.slice(-4),
  };
}
