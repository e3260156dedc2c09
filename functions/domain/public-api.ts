/**
 * The public API v1 contract (docs/api.md). For every `auth: 'key'` route of
 * functions/routes.ts: its request schemas (the v1 handlers parse with exactly these; a test
 * checks they are the same objects). What each answers and the words of its OpenAPI operation
 * are in public-api-docs.ts; domain/openapi.ts builds the document from both and the route table.
 */
import * as z from 'zod/mini';
import { fileEntryInputSchema } from './file-entry-schema';
import { LIST_FILTERS, LIST_MAX_SKIP, SEARCH_MAX_LENGTH } from './dashboard-api';
import { createRequestSchema } from './requests-api';
import { regionIdSchema } from './regions';
import { fileIdSchema, recordPartRequestSchema, signBodySchema, transferIdSchema } from './transfer-api';
import { SEND_AS, messageSchema, recipientSchema } from './validation';

/** POST /v1/transfers: an email or link send. Plan rules (size, expiry, recipients) apply as in the app. */
export const v1CreateTransferSchema = z.object({
  sendAs: z._default(z.enum(SEND_AS), 'link'),
  /** recipients of an email send */
  emailTo: z.optional(z.array(recipientSchema).check(z.maxLength(500))),
  message: z.optional(messageSchema),
  password: z.optional(z.string().check(z.maxLength(128))),
  /** seconds the link lives (the plan's choices: 3600, 86400, 604800, ...); -1 with customExpiryDate */
  expirySeconds: z.optional(z.number().check(z.int())),
  /** epoch ms, with expirySeconds -1 (plans with custom expiry) */
  customExpiryDate: z.optional(z.number().check(z.int())),
  senderName: z.optional(z.string().check(z.maxLength(200))),
  /** language of the recipients' mail */
  lang: z.optional(z.string().check(z.maxLength(16))),
  region: z.optional(regionIdSchema),
  fileObjects: z.array(fileEntryInputSchema).check(z.minLength(1), z.maxLength(5000)),
});
export type V1CreateTransferRequest = z.input<typeof v1CreateTransferSchema>;

export const v1TransferParams = z.object({ id: transferIdSchema });
export const v1FileParams = z.object({ id: transferIdSchema, fileId: fileIdSchema });
export const v1ListTransfersQuery = z.object({
  filter: z._default(z.enum(LIST_FILTERS), 'all'),
  skip: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(LIST_MAX_SKIP)), 0),
  q: z.optional(z.string().check(z.trim(), z.maxLength(SEARCH_MAX_LENGTH))),
});
export const v1SignSchema = signBodySchema;
export const v1RecordPartSchema = recordPartRequestSchema;
export const v1CreateRequestSchema = createRequestSchema;
export const v1KeyIdParams = z.object({ id: z.string().check(z.regex(/^[0-9A-Za-z]{16}$/u, 'invalid_key_id')) });
