/**
 * The public API v1 contract (docs/api.md). For every `auth: 'key'` route of
 * functions/routes.ts: its request schemas (the v1 handlers parse with exactly these; a test
 * checks they are the same objects). What each answers and the words of its OpenAPI operation
 * are in public-api-docs.ts; domain/openapi.ts builds the document from both and the route table.
 */
import * as z from 'zod/mini';
import { LIST_FILTERS, LIST_MAX_SKIP, SEARCH_MAX_LENGTH } from './dashboard-api';
import { createRequestSchema } from './requests-api';
import {
  completeFileRequestSchema,
  createTransferRequestSchema,
  fileIdSchema,
  recordPartBodySchema,
  signBodySchema,
  transferIdSchema,
} from './transfer-api';

/**
 * POST /v1/transfers: the app's send body itself (transfer-api.ts createTransferRequestSchema),
 * so the API and the app cannot drift apart. Plan rules (size, expiry, recipients) apply as in
 * the app; `sendAs` left out is a link with an API key.
 */
export const v1CreateTransferSchema = createTransferRequestSchema;
export type V1CreateTransferRequest = z.input<typeof v1CreateTransferSchema>;

export const v1TransferParams = z.object({ id: transferIdSchema });
export const v1FileParams = z.object({ id: transferIdSchema, fileId: fileIdSchema });
export const v1ListTransfersQuery = z.object({
  filter: z._default(z.enum(LIST_FILTERS), 'all'),
  skip: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(LIST_MAX_SKIP)), 0),
  q: z.optional(z.string().check(z.trim(), z.maxLength(SEARCH_MAX_LENGTH))),
});
export const v1SignSchema = signBodySchema;
export const v1RecordPartSchema = recordPartBodySchema;
export const v1CompleteFileSchema = completeFileRequestSchema;
export const v1CreateRequestSchema = createRequestSchema;
export const v1KeyIdParams = z.object({ id: z.string().check(z.regex(/^[0-9A-Za-z]{16}$/u, 'invalid_key_id')) });
