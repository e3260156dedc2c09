import type { DownloadRow } from '@domain/dashboard-api';

/** A spreadsheet would run a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/u;

/**
 * One CSV field (RFC 4180): a cell that a spreadsheet would read as a formula gets a leading
 * apostrophe; a field with a quote, comma or line break is quoted, its quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/u.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows joined with CRLF, after a BOM so spreadsheets read the UTF-8 (names in any script). */
export function buildCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

export interface DownloadCsvLabels {
  /** column titles: date, transfer, file, origin, country, country code, recipient, receipts */
  readonly header: readonly [string, string, string, string, string, string, string, string];
  readonly origin: Readonly<Record<DownloadRow['dlOrigin'], string>>;
  countryName(code: string): string;
  /** where the transfer's signed delivery receipts are: its TransferModal's receipts section */
  receiptsLink(slug: string): string;
}

/** The downloads export: ISO date, transfer slug, file, file or ZIP, country name and code, recipient, receipts link. */
export function downloadsCsv(rows: readonly DownloadRow[], labels: DownloadCsvLabels): string {
  return buildCsv(
    labels.header,
    rows.map((row) => [
      new Date(row.dlDate).toISOString(),
      row.slug,
      row.fileName,
      labels.origin[row.dlOrigin],
      labels.countryName(row.countryCode),
      row.countryCode,
      row.receiverEmail ?? '',
      labels.receiptsLink(row.slug),
    ]),
  );
}

/** The file's name for a range: sendbridge-downloads-2026-01-01-to-2026-01-31.csv */
export function csvFileName(from: string, to: string): string {
  return `sendbridge-downloads-${from}-to-${to}.csv`;
}
