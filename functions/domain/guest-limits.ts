/**
 * Bounds on sending without an account. The anon plan's own numbers (spec §9: 3 GB a
 * transfer, 5 GB of storage, 6 recipients) live in plans.ts; these add what the spec leaves
 * open and a public product needs: storage counts per verified sender address, and each
 * address and each client gets a daily allowance of sends, recipients and bytes, so one
 * verified address cannot fill the anon bucket or turn the product into a mailer.
 */
import { GB } from './units';

export const GUEST_DAY_SECONDS = 24 * 3600;

export const GUEST_LIMITS = {
  /** sends a day from one verified address */
  sendsPerAddress: 10,
  /** sends a day from one client address, whatever sender addresses it verifies */
  sendsPerClient: 20,
  /** recipients mailed a day for one verified address (6 a send) */
  recipientsPerAddress: 30,
  /** recipients mailed a day from one client address */
  recipientsPerClient: 60,
  /** bytes a day from one client address */
  bytesPerClient: 10 * GB,
} as const;
