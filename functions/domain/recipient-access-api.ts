/**
 * The request bodies of the verified-recipient routes (docs/decisions/0076): the download
 * page's code and verify calls, and the sender's access list.
 */
import * as z from 'zod/mini';
import { emailSchema, guestCodeSchema, verifiedDomainSchema } from './validation';
import { recipientIdSchema, transferIdSchema } from './transfer-api';
import { PASSWORD_MAX_LENGTH } from './input-rules';
import { MAX_ADDED_AT_ONCE } from './recipient-access';

const body = {
  id: transferIdSchema,
  password: z.optional(z.string().check(z.maxLength(PASSWORD_MAX_LENGTH))),
  recipient: z.optional(recipientIdSchema),
  email: emailSchema,
};

/** POST /getDownload/access/code: mail a code to an address allowed to download. */
export const accessCodeRequestSchema = z.object({ ...body, lang: z.optional(z.string().check(z.maxLength(16))) });
export type AccessCodeRequest = z.input<typeof accessCodeRequestSchema>;

/** POST /getDownload/access/verify: a right code opens a session for this transfer and address. */
export const accessVerifyRequestSchema = z.object({ ...body, code: guestCodeSchema });
export type AccessVerifyRequest = z.input<typeof accessVerifyRequestSchema>;

/** POST /transfers/access (owner): the list. */
export const accessListRequestSchema = z.object({ slug: transferIdSchema });

/** POST /transfers/access/settings (owner): turn verification on or off, set or clear the domain. */
export const accessSettingsRequestSchema = z.object({
  slug: transferIdSchema,
  enabled: z.boolean(),
  domain: z.optional(z.nullable(verifiedDomainSchema)),
});
export type AccessSettingsRequest = z.input<typeof accessSettingsRequestSchema>;

/** POST /transfers/access/add (owner): new addresses, mailed their link. */
export const accessAddRequestSchema = z.object({
  slug: transferIdSchema,
  emails: z.array(emailSchema).check(z.minLength(1), z.maxLength(MAX_ADDED_AT_ONCE)),
  expiresAt: z.optional(z.number().check(z.int(), z.positive())),
});
export type AccessAddRequest = z.input<typeof accessAddRequestSchema>;

/** POST /transfers/access/recipient (owner): remove, revoke, restore, or set one address's expiry. */
export const accessChangeRequestSchema = z.object({
  slug: transferIdSchema,
  email: emailSchema,
  action: z.enum(['remove', 'revoke', 'restore', 'expiry']),
  /** with 'expiry': the new end (epoch ms), or null for the transfer's own */
  expiresAt: z.optional(z.nullable(z.number().check(z.int(), z.positive()))),
});
export type AccessChangeRequest = z.input<typeof accessChangeRequestSchema>;
