/**
 * The receipts routes' contract: the TransferModal's delivery rows and each one's signed
 * receipt (functions/domain/receipt.ts holds the receipt itself and its check, without zod, so
 * the /verify page's chunk stays small).
 */
import * as z from 'zod/mini';
import type { DeliveryRecipient } from './delivery';
import type { ReceiptProblem } from './receipt-format';
import { transferIdSchema } from './transfer-api';

/** A delivery's id as the path names it (the deliveries module's ids: UUIDs, or another URL-safe id). */
export const deliveryIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/u));

export const deliveriesParamsSchema = z.object({ id: transferIdSchema });
export const receiptParamsSchema = z.object({ id: transferIdSchema, deliveryId: deliveryIdSchema });

/** A compact JWS: three base64url parts (a receipt's is about 1 KB plus 150 bytes a file). */
export const receiptCheckBodySchema = z.object({
  jws: z.string().check(z.maxLength(400_000), z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/u)),
});

/**
 * POST /receipts/check: whether this deployment signed the receipt and still holds the delivery
 * it names, unchanged. Nothing of the receipt is echoed: the caller holds it.
 */
export type ReceiptCheckResponse =
  | { readonly valid: true; readonly kid: string; readonly recorded: boolean }
  | { readonly valid: false; readonly code: ReceiptProblem };

/** The modal lists at most this many deliveries of a transfer, oldest first (`more` says there are others). */
export const MAX_DELIVERY_ROWS = 500;

/** One row of the modal's deliveries: what a receipt will say, without the file list. */
export interface DeliveryRow {
  readonly deliveryId: string;
  /** epoch ms: the last byte was served */
  readonly at: number;
  readonly what: 'file' | 'zip';
  readonly recipient: DeliveryRecipient;
  readonly countryCode: string;
  readonly fileCount: number;
  /** the one file's path for a file delivery */
  readonly fileName?: string;
  readonly bytes: number;
  readonly servedWhole: boolean;
}

export interface DeliveriesResponse {
  readonly deliveries: readonly DeliveryRow[];
  readonly more: boolean;
}
