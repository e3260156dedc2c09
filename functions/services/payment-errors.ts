/**
 * Provider errors as HTTP answers (spec §8: card errors are shown as the provider
 * words them). A CardError is a 402 whose `code` is one of Stripe's card error codes and whose
 * message is the provider's own; codes outside the documented list answer as `card_declined`,
 * still with the provider's message.
 */
import { HttpError } from '../lib/errors';
import { CardError } from '../adapters/payments/provider';

/** Stripe's card error codes the API answers with (docs/error-codes.md). */
export const CARD_ERROR_CODES = [
  'card_declined',
  'incorrect_number',
  'invalid_number',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'invalid_cvc',
  'incorrect_cvc',
  'expired_card',
  'processing_error',
] as const;

export type CardErrorCode = (typeof CARD_ERROR_CODES)[number];

export function cardErrorCode(code: string): CardErrorCode {
  return (CARD_ERROR_CODES as readonly string[]).includes(code) ? (code as CardErrorCode) : 'card_declined';
}

/** 402 with the card error's code, the provider's message and, when given, its decline code. */
export function cardHttpError(err: CardError): HttpError {
  return new HttpError(
    402,
    cardErrorCode(err.code),
    err.message,
    err.declineCode ? { declineCode: err.declineCode } : undefined,
  );
}

/** Runs a provider call, turning a CardError into its 402. */
export async function withCardErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CardError) throw cardHttpError(err);
    throw err;
  }
}
