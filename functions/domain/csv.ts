/**
 * CSV (RFC 4180) for the contacts import and export: a small parser and formatter of our own
 * rather than a dependency (docs/decisions/, "Contacts CSV").
 *
 * Parsing is lenient where spreadsheets are: LF, CRLF or CR line ends, a UTF-8 BOM, a last line
 * without a line end; a quote inside an unquoted field is kept as text; a field that opens a
 * quote and never closes it runs to the end of the text (reported as `unterminated`).
 */

export interface ParsedCsv {
  readonly rows: string[][];
  /** a quoted field was still open at the end of the text */
  readonly unterminated: boolean;
  /** parsing stopped after `maxRows` rows */
  readonly truncated: boolean;
}

/** Rows of fields. Stops after `maxRows` rows (+1 is seen, so the caller can tell it stopped). */
export function parseCsv(text: string, maxRows = Number.POSITIVE_INFINITY): ParsedCsv {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  // a field that began with a quote; after its closing quote, text up to the separator is appended
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      i += 1;
      continue;
    }
    if (ch === ',') {
      row.push(field);
      field = '';
      i += 1;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      endRow();
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
      if (rows.length > maxRows) return { rows: rows.slice(0, maxRows), unterminated: false, truncated: true };
      continue;
    }
    field += ch;
    i += 1;
  }
  const unterminated = quoted;
  if (field !== '' || row.length > 0 || unterminated) endRow();
  if (rows.length > maxRows) return { rows: rows.slice(0, maxRows), unterminated, truncated: true };
  return { rows, unterminated, truncated: false };
}

/** A spreadsheet would run a cell starting with one of these as a formula (CSV injection, OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/u;

/**
 * One field: a cell a spreadsheet would read as a formula gets a leading apostrophe; a field
 * with a quote, comma or line break (or spaces at either end) is quoted, its quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/u.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows joined with CRLF (RFC 4180), after a BOM so spreadsheets read the UTF-8. */
export function formatCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** The export's apostrophe undone on import, so export -> import gives the values back. */
export function unescapeFormulaCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}
