/**
 * The signed delivery receipt's format (functions/domain/receipt.ts signs and checks it): its
 * fields, the JWS header values and the file names. Without imports, so the TransferModal's
 * chunk can name a receipt without carrying the JOSE library.
 */
export const RECEIPT_FORMAT = 'sendbridge-receipt/1';
/** the JWS `typ` of a receipt, so no other token signed with these keys passes as one */
export const RECEIPT_JWS_TYPE = 'sendbridge-receipt+jws';
export const RECEIPT_ALG = 'EdDSA';
/** where the app origin publishes the receipt keys (routes.ts path, under `/api`) */
export const RECEIPT_KEYS_PATH = '/api/receipts/keys';
/** where the app origin checks a receipt online (POST `{ jws }`) */
export const RECEIPT_CHECK_PATH = '/api/receipts/check';

export type ReceiptRecipient =
  | { readonly kind: 'verified'; readonly email: string }
  | { readonly kind: 'personal'; readonly email: string }
  | { readonly kind: 'link' };

export interface ReceiptFile {
  readonly path: string;
  readonly size: number;
  /** hex SHA-256 from the transfer's manifest; null when it was not computed yet */
  readonly sha256: string | null;
}

/** What a receipt attests; every field is signed. */
export interface Receipt {
  readonly format: typeof RECEIPT_FORMAT;
  /** the app origin that issued it; its keys are at `issuer + RECEIPT_KEYS_PATH` */
  readonly issuer: string;
  readonly transfer: string;
  readonly delivery: string;
  /** ISO 8601 (UTC): the download's URL was issued */
  readonly startedAt: string;
  /** ISO 8601 (UTC): the last byte was served */
  readonly deliveredAt: string;
  readonly what: 'file' | 'zip';
  readonly recipient: ReceiptRecipient;
  /** ISO 3166 alpha-2, or 'XX' when unknown */
  readonly country: string;
  readonly files: readonly ReceiptFile[];
  readonly bytes: number;
  readonly servedWhole: boolean;
}

export interface ReceiptDocument {
  readonly format: typeof RECEIPT_FORMAT;
  readonly receipt: Receipt;
  readonly jws: string;
}

/** Why a receipt was refused; stable codes the CLI and the page translate. */
export type ReceiptProblem =
  /** not a receipt file: not JSON, or fields missing */
  | 'receipt_malformed'
  /** signed with a key id the key set does not hold */
  | 'receipt_unknown_key'
  /** the signature does not match the signed bytes */
  | 'receipt_bad_signature'
  /** the readable copy differs from the signed one */
  | 'receipt_mismatch';

/** The receipt file's name: the transfer and delivery it is about. */
export function receiptFileName(r: Pick<Receipt, 'transfer' | 'delivery'>, ext: 'json' | 'pdf'): string {
  return `sendbridge-receipt-${r.transfer}-${r.delivery}.${ext}`;
}
