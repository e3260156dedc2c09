/**
 * Contacts (spec §2 /dash/contacts, §3 User.contacts and Contact: email, name,
 * company, §5 "Contacts de-duplicated case-insensitively by email; ignored without email",
 * §6 contacts offered as email suggestions, §7 POST /quicksend2). The contract between the
 * `me` handlers, the contacts screen and the tests. Paths are relative to /api; every route
 * needs the signed-in user's JWT and touches only the caller's own contacts.
 *
 *   GET  /contacts?q=              the caller's contacts, optionally searched   -> 200 ContactListResponse
 *   POST /contacts                 { email, name?, company? }                    -> 201 { contact } | 409 contact_exists | 409 contacts_full
 *   PATCH /contacts                { email, name?, company?, newEmail? }         -> 200 { contact } | 404 contact_not_found | 409 contact_exists
 *   POST /contacts/remove          { email }                                     -> 200 { removed: true } | 404 contact_not_found
 *   POST /contacts/import          { csv }                                       -> 200 ContactImportResult
 *   GET  /contacts/export          the contacts as CSV (attachment contacts.csv) -> 200 text/csv
 *   POST /quicksend2               suggestions for the recipient box             -> 200 { contacts: ContactView[] }
 *
 * A contact is one per lower-cased address (the key); `email` keeps the address as it was first
 * written, for display. Sends add their recipients (docs/data-model.md, "Contacts").
 */
import * as z from 'zod/mini';
import { EMAIL_MAX_LENGTH, isValidEmail, type ProblemCode } from './validation';

/** Most contacts one account keeps (a counter with a conditional write enforces it). */
export const MAX_CONTACTS = 5000;
export const CONTACT_FIELD_MAX = 200;
/** Search text of GET /contacts. */
export const CONTACT_SEARCH_MAX = 100;
/** CSV import: the text's size (UTF-8 bytes; the JSON body around it is capped at 1 MB) and its rows. */
export const CSV_IMPORT_MAX_BYTES = 512 * 1024;
export const CSV_IMPORT_MAX_ROWS = MAX_CONTACTS;

/** The key of a contact: its address, trimmed and lower-cased (spec §5: case-insensitive). */
export function contactKeyOf(email: string): string {
  return email.trim().toLowerCase();
}

/** Control characters (line breaks, tabs, NUL…) become spaces, runs of spaces one. */
function cleanText(value: string): string {
  return value
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/gu, ' ')
    .trim();
}

/**
 * An address as typed: trimmed and valid (the domain's email rules), its case kept for
 * display. Lower-casing happens in the key only.
 */
export const contactEmailSchema = z
  .string({ error: 'email_required' satisfies ProblemCode })
  .check(
    z.trim(),
    z.minLength(1, 'email_required' satisfies ProblemCode),
    z.maxLength(EMAIL_MAX_LENGTH, 'invalid_email' satisfies ProblemCode),
    z.refine(isValidEmail, 'invalid_email' satisfies ProblemCode),
  );

/** A name or company from a file: cleaned like typed ones, cut at 200 characters. */
export function cleanContactText(value: string): string {
  return cleanText(value).slice(0, CONTACT_FIELD_MAX).trim();
}

/** A name or company: control characters removed, at most 200 characters; '' clears it. */
export const contactTextSchema = z.pipe(
  z.pipe(z.string().check(z.maxLength(CONTACT_FIELD_MAX * 2)), z.transform(cleanText)),
  z.string().check(z.maxLength(CONTACT_FIELD_MAX)),
);

export const addContactSchema = z.object({
  email: contactEmailSchema,
  name: z.optional(contactTextSchema),
  company: z.optional(contactTextSchema),
});
export type AddContactInput = z.input<typeof addContactSchema>;

/** Edit names the contact by its address (any case); `newEmail` changes the address itself. */
export const editContactSchema = z.object({
  email: contactEmailSchema,
  name: z.optional(contactTextSchema),
  company: z.optional(contactTextSchema),
  newEmail: z.optional(contactEmailSchema),
});
export type EditContactInput = z.input<typeof editContactSchema>;

export const removeContactSchema = z.object({ email: contactEmailSchema });

export const listContactsQuerySchema = z.object({
  /** case-insensitive substring of the address, name or company */
  q: z.optional(z.string().check(z.trim(), z.maxLength(CONTACT_SEARCH_MAX))),
});

export const importContactsSchema = z.object({
  /** the CSV file's text (RFC 4180; a header row names the email, name and company columns) */
  csv: z.string().check(z.maxLength(CSV_IMPORT_MAX_BYTES)),
});

/** Where a contact came from first: a send's recipient, typed on the contacts screen, a CSV import. */
export const CONTACT_SOURCES = ['send', 'manual', 'import'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

/** One contact as the contacts screen lists it (spec §3 Contact plus bookkeeping). */
export interface ContactRow {
  readonly email: string;
  readonly name?: string;
  readonly company?: string;
  readonly source: ContactSource;
  readonly createdAt: number;
  /** the last send to this address, if any */
  readonly lastUsedAt: number | null;
}

export interface ContactListResponse {
  /** sorted by name (else address), case-insensitively */
  readonly contacts: readonly ContactRow[];
  /** all the caller's contacts, whatever `q` */
  readonly total: number;
  readonly max: number;
}

/** What an import did, row by row of the file (the header row not counted). */
export interface ContactImportResult {
  readonly rows: number;
  /** new contacts */
  readonly added: number;
  /** existing contacts whose name or company the file changed */
  readonly updated: number;
  /** existing contacts the file had nothing new for */
  readonly unchanged: number;
  /** rows without an email (spec §5: ignored), blank lines included */
  readonly skippedWithoutEmail: number;
  /** rows whose email is not a valid address */
  readonly invalid: number;
  /** rows repeating an address an earlier row of the file had (case-insensitively) */
  readonly duplicates: number;
  /** new addresses left out because the account reached MAX_CONTACTS */
  readonly overLimit: number;
}

export const CONTACTS_CSV_FILENAME = 'contacts.csv';
/** The export's header row; the import recognises these names (and others, see services/contacts.ts). */
export const CONTACTS_CSV_HEADER = ['email', 'name', 'company'] as const;
