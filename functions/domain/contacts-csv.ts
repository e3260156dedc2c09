/**
 * Contacts as CSV: which columns of an imported file hold the email, name and
 * company, and the export's rows. Pure; the service (functions/services/contacts.ts) decides
 * what each row does to the stored contacts.
 */
import { CONTACTS_CSV_HEADER, type ContactRow } from './contacts-api';
import { formatCsv, parseCsv, unescapeFormulaCell } from './csv';

/** Header cells compared without case, spaces, dashes, dots or underscores. */
const norm = (cell: string) => cell.toLowerCase().replace(/[\s._\-:]+/gu, '');

/** Header names (normalised) of each column, as common address books export them. */
const EMAIL_HEADERS = new Set([
  'email',
  'emailaddress',
  'mail',
  'emailaddresses',
  'primaryemail',
  'email1',
  'email1value',
  'e1value',
  'emailvalue',
  'workemail',
  'businessemail',
]);
const NAME_HEADERS = new Set(['name', 'fullname', 'displayname', 'contact', 'contactname', 'person']);
const FIRST_HEADERS = new Set(['firstname', 'givenname', 'forename']);
const LAST_HEADERS = new Set(['lastname', 'familyname', 'surname']);
const COMPANY_HEADERS = new Set([
  'company',
  'companyname',
  'organization',
  'organisation',
  'organization1name',
  'org',
  'business',
  'employer',
]);

export interface ContactColumns {
  readonly email: number;
  readonly name?: number;
  readonly first?: number;
  readonly last?: number;
  readonly company?: number;
  /** the first row names the columns (and is not a contact) */
  readonly header: boolean;
}

const EMAILISH = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

/**
 * The columns of a file from its first row: a header row naming an email column (names in any
 * order: "Email", "E-mail Address", "E-mail 1 - Value"…), else, without a header, the first
 * cell that looks like an address is the email and the other cells, in order, name and company.
 * Undefined when neither is found.
 */
export function detectColumns(firstRow: readonly string[]): ContactColumns | undefined {
  const cells = firstRow.map(norm);
  const find = (names: Set<string>) => {
    const at = cells.findIndex((c) => names.has(c));
    return at < 0 ? undefined : at;
  };
  const looksLikeData = firstRow.some((c) => EMAILISH.test(c.trim()));
  // "Work E-mail", "Email (primary)": a header cell that speaks of email, in a row holding no address
  const loose = looksLikeData ? -1 : cells.findIndex((c) => c.includes('email'));
  const email = find(EMAIL_HEADERS) ?? (loose >= 0 ? loose : undefined);
  if (email !== undefined) {
    const name = find(NAME_HEADERS);
    const first = find(FIRST_HEADERS);
    const last = find(LAST_HEADERS);
    const company = find(COMPANY_HEADERS);
    return {
      email,
      header: true,
      ...(name !== undefined ? { name } : {}),
      ...(first !== undefined ? { first } : {}),
      ...(last !== undefined ? { last } : {}),
      ...(company !== undefined ? { company } : {}),
    };
  }
  const at = firstRow.findIndex((c) => EMAILISH.test(unescapeFormulaCell(c.trim())));
  if (at < 0) return undefined;
  const others = firstRow.map((_, i) => i).filter((i) => i !== at);
  return {
    email: at,
    header: false,
    ...(others[0] !== undefined ? { name: others[0] } : {}),
    ...(others[1] !== undefined ? { company: others[1] } : {}),
  };
}

/** One line of the file as a contact's raw values ('' when the cell is missing or blank). */
export interface CsvContactEntry {
  /** 1-based line of the file's rows */
  readonly line: number;
  readonly email: string;
  readonly name: string;
  readonly company: string;
}

export type ContactsCsvRead =
  | { readonly ok: true; readonly entries: readonly CsvContactEntry[]; readonly truncated: boolean }
  | { readonly ok: false; readonly reason: 'empty' | 'no_email_column' | 'unterminated' };

/** The file's contacts, one entry per row after the header (blank lines too: they have no email). */
export function readContactsCsv(text: string, maxRows: number): ContactsCsvRead {
  const parsed = parseCsv(text, maxRows + 1);
  if (parsed.unterminated) return { ok: false, reason: 'unterminated' };
  const firstAt = parsed.rows.findIndex((r) => r.some((c) => c.trim() !== ''));
  if (firstAt < 0) return { ok: false, reason: 'empty' };
  const columns = detectColumns(parsed.rows[firstAt]!);
  if (!columns) return { ok: false, reason: 'no_email_column' };
  const start = columns.header ? firstAt + 1 : firstAt;
  const body = parsed.rows.slice(start);
  const truncated = parsed.truncated || body.length > maxRows;
  const cell = (row: readonly string[], at: number | undefined) =>
    at === undefined ? '' : unescapeFormulaCell((row[at] ?? '').trim());
  const entries = body.slice(0, maxRows).map((row, i) => {
    const name =
      cell(row, columns.name) || [cell(row, columns.first), cell(row, columns.last)].filter(Boolean).join(' ');
    return { line: start + i + 1, email: cell(row, columns.email), name, company: cell(row, columns.company) };
  });
  return { ok: true, entries, truncated };
}

/** The export: a header row (email, name, company), one row per contact, formula-safe. */
export function contactsCsv(contacts: readonly Pick<ContactRow, 'email' | 'name' | 'company'>[]): string {
  return formatCsv([[...CONTACTS_CSV_HEADER], ...contacts.map((c) => [c.email, c.name ?? '', c.company ?? ''])]);
}
