/**
 * The shapes of the public ids that appear in links, as plain patterns without zod, so the
 * download page can read its address without loading the schemas (slug.ts and
 * transfer-api.ts build their zod schemas from these same patterns).
 */

/** A transfer's public id, the /w slug: any 7 ASCII letters or digits (see slug.ts). */
export const SLUG_PATTERN = /^[A-Za-z0-9]{7}$/u;

/** A recipient's id in an emailed link. */
export const RECIPIENT_ID_PATTERN = /^[A-Za-z0-9]{8}$/u;

export function isSlug(value: unknown): value is string {
  return typeof value === 'string' && SLUG_PATTERN.test(value);
}

export function isRecipientId(value: unknown): value is string {
  return typeof value === 'string' && RECIPIENT_ID_PATTERN.test(value);
}
