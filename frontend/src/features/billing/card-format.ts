/**
 * The simulator's card fields (spec §1 embedded card payment; the simulator stands in for
 * Stripe's card element): digits grouped as they are printed on the card, the expiry as
 * MM / YY, the CVC as digits. The provider judges the card itself (declined, incorrect number):
 * these only say a field is incomplete before anything is sent.
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'unionpay' | 'diners' | 'unknown';

export function digitsOf(value: string): string {
  return value.replace(/\D+/gu, '');
}

export function cardBrand(digits: string): CardBrand {
  if (/^3[47]/u.test(digits)) return 'amex';
  if (/^4/u.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/u.test(digits)) return 'mastercard';
  if (/^(6011|65|64[4-9])/u.test(digits)) return 'discover';
  if (/^35/u.test(digits)) return 'jcb';
  if (/^62/u.test(digits)) return 'unionpay';
  if (/^3(0[0-5]|[689])/u.test(digits)) return 'diners';
  return 'unknown';
}

/** Longest number of digits a brand's cards have. */
function maxDigits(brand: CardBrand): number {
  if (brand === 'amex') return 15;
  if (brand === 'diners') return 14;
  return 19;
}

/** Fewest digits a card of the brand has (other issuers' cards start at 12). */
function minDigits(brand: CardBrand): number {
  if (brand === 'amex') return 15;
  if (brand === 'diners') return 14;
  if (brand === 'unknown') return 12;
  return 16;
}

/** '4242424242424242' -> '4242 4242 4242 4242'; American Express 4-6-5. */
export function formatCardNumber(value: string): string {
  const brand = cardBrand(digitsOf(value));
  const digits = digitsOf(value).slice(0, maxDigits(brand));
  if (brand === 'amex')
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].filter((g) => g !== '').join(' ');
  return (digits.match(/.{1,4}/gu) ?? []).join(' ');
}

/**
 * As typed: '4' is April ('04 / '), '1225' is '12 / 25'; typing the month's second digit adds
 * the separator, deleting (the value got shorter than `previous`) does not put it back.
 */
export function formatExpiry(value: string, previous = ''): string {
  let digits = digitsOf(value).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  const deleting = value.length < previous.length;
  if (digits.length > 2) return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
  if (digits.length === 2 && !deleting) return `${digits} / `;
  return digits;
}

export interface Expiry {
  readonly month: number;
  readonly year: number;
}

/** 'MM / YY' or 'MM / YYYY' -> month and four-digit year; null when not a month. */
export function parseExpiry(value: string): Expiry | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/u.exec(value);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

export function formatCvc(value: string): string {
  return digitsOf(value).slice(0, 4);
}

export type CardFieldProblem = 'incomplete' | 'expired';

export interface CardFields {
  readonly number: string;
  readonly expiry: string;
  readonly cvc: string;
}

export interface CardProblems {
  readonly number: CardFieldProblem | null;
  readonly expiry: CardFieldProblem | null;
  readonly cvc: CardFieldProblem | null;
}

/** Incomplete fields, and an expiry before this month. */
export function cardProblems(fields: CardFields, now: Date): CardProblems {
  const digits = digitsOf(fields.number);
  const brand = cardBrand(digits);
  const expiry = parseExpiry(fields.expiry);
  const cvcDigits = digitsOf(fields.cvc);
  const thisMonth = now.getFullYear() * 12 + now.getMonth();
  return {
    number: digits.length < minDigits(brand) ? 'incomplete' : null,
    expiry: !expiry ? 'incomplete' : expiry.year * 12 + (expiry.month - 1) < thisMonth ? 'expired' : null,
    cvc: cvcDigits.length < (brand === 'amex' ? 4 : 3) ? 'incomplete' : null,
  };
}

export function hasProblem(problems: CardProblems): boolean {
  return problems.number !== null || problems.expiry !== null || problems.cvc !== null;
}

/** The body of the simulator's card calls, from the fields as typed. */
export function simulatedCard(fields: CardFields & { readonly name: string }, clientSecret: string) {
  const expiry = parseExpiry(fields.expiry);
  const name = fields.name.trim();
  return {
    clientSecret,
    number: digitsOf(fields.number),
    expMonth: expiry?.month ?? 0,
    expYear: expiry?.year ?? 0,
    cvc: digitsOf(fields.cvc),
    ...(name ? { name: name.slice(0, 255) } : {}),
  };
}
