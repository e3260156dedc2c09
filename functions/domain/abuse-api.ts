/**
 * Abuse reports. The download page's "Report this transfer" action; reports go to
 * an operator queue (table records, a mail to ABUSE_REPORT_TO, `npm run abuse`), and an
 * operator may disable a transfer: its link then answers 410 `transfer_disabled` while its
 * objects are kept as evidence.
 *
 *   POST /getDownload/report   { id, reason, email?, details?, lang? }  -> 202 { reported: true }
 *
 * Errors: 404 transfer_not_found, 429 rate_limited (REPORTS_PER_TRANSFER per transfer and
 * client, REPORTS_PER_IP per client), 400 for a reason outside ABUSE_REASONS.
 */
import * as z from 'zod/mini';
import { transferIdSchema } from './transfer-api';
import { emailSchema } from './validation';

import { ABUSE_DETAILS_MAX, ABUSE_REASONS } from './abuse-reasons';

export { ABUSE_DETAILS_MAX, ABUSE_REASONS, type AbuseReason } from './abuse-reasons';

/** One client may report one transfer this often (per day), and any transfers this often (per hour). */
export const REPORTS_PER_TRANSFER = { limit: 2, windowSeconds: 24 * 3600 } as const;
export const REPORTS_PER_IP = { limit: 10, windowSeconds: 3600 } as const;

export const abuseReportRequestSchema = z.object({
  id: transferIdSchema,
  reason: z.enum(ABUSE_REASONS),
  email: z.optional(emailSchema),
  details: z.optional(z.string().check(z.maxLength(ABUSE_DETAILS_MAX))),
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type AbuseReportRequest = z.input<typeof abuseReportRequestSchema>;
export interface AbuseReportResponse {
  readonly reported: true;
}
