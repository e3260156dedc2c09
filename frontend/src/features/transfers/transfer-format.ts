/**
 * How a transfer reads in the list and the TransferModal (spec §2, §4): expiry state, the
 * recipients and files summaries, each recipient's download status, files by folder, country
 * names. Pure: texts are i18n keys with values, or Intl output in the reader's language.
 */
import { EXPIRING_SOON_MS, type DetailFile, type DetailRecipient, type TransferRow } from '@domain/dashboard-api';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function localeOf(language: string): string {
  return LANGUAGE_TAGS[toLanguage(language)];
}

/** Spec §4: active while the expiry is ahead; expiring soon under 2.2 days left. */
export type ExpiryPhase = 'active' | 'expiring' | 'expired' | 'deleted';

export function expiryPhase(row: Pick<TransferRow, 'state' | 'expiryDate'>, now: number): ExpiryPhase {
  if (row.state === 'deleted') return 'deleted';
  if (row.state === 'expired' || row.expiryDate <= now) return 'expired';
  return row.expiryDate - now < EXPIRING_SOON_MS ? 'expiring' : 'active';
}

/** The distance to a moment in the largest unit that keeps it a whole number above zero. */
export function relativeParts(ms: number): { value: number; unit: 'minute' | 'hour' | 'day' } {
  const abs = Math.abs(ms);
  if (abs < HOUR) return { value: Math.max(1, Math.round(abs / MINUTE)), unit: 'minute' };
  if (abs < DAY) return { value: Math.round(abs / HOUR), unit: 'hour' };
  return { value: Math.round(abs / DAY), unit: 'day' };
}

export interface ExpiryText {
  readonly key: 'expiry.expiresIn' | 'expiry.expiredAgo' | 'expiry.deleted';
  /** 'in 3 days' / '2 days ago' in the reader's language (Intl.RelativeTimeFormat) */
  readonly when: string;
}

/** "Expires in 3 days" / "Expired 2 days ago" / "Deleted": the key and its relative time. */
export function expiryText(row: Pick<TransferRow, 'state' | 'expiryDate'>, now: number, language: string): ExpiryText {
  const phase = expiryPhase(row, now);
  if (phase === 'deleted') return { key: 'expiry.deleted', when: '' };
  const { value, unit } = relativeParts(row.expiryDate - now);
  const rtf = new Intl.RelativeTimeFormat(localeOf(language), { numeric: 'always' });
  return phase === 'expired'
    ? { key: 'expiry.expiredAgo', when: rtf.format(-value, unit) }
    : { key: 'expiry.expiresIn', when: rtf.format(value, unit) };
}

export type RecipientsSummary =
  | { readonly kind: 'link' }
  | { readonly kind: 'one'; readonly first: string }
  | { readonly kind: 'more'; readonly first: string; readonly more: number };

/** 'Link', the one recipient, or the first plus '+ n' (spec §2 done view). */
export function recipientsSummary(row: Pick<TransferRow, 'sendAs' | 'recipients'>): RecipientsSummary {
  const [first, ...rest] = row.recipients;
  if (row.sendAs === 'link' || first === undefined) return { kind: 'link' };
  return rest.length === 0 ? { kind: 'one', first } : { kind: 'more', first, more: rest.length };
}

/** Files beyond the first one the row names ("+2 files"); 0 when it is the only one. */
export function moreFiles(row: Pick<TransferRow, 'fileCount'>): number {
  return Math.max(0, row.fileCount - 1);
}

export type RecipientStatus =
  | { readonly kind: 'downloaded'; readonly times: number; readonly lastAt: number | null }
  | { readonly kind: 'waiting' };

export function recipientStatus(r: Pick<DetailRecipient, 'downloads' | 'lastDownloadAt'>): RecipientStatus {
  return r.downloads > 0
    ? { kind: 'downloaded', times: r.downloads, lastAt: r.lastDownloadAt ?? null }
    : { kind: 'waiting' };
}

/** The recipients a reminder would go to (spec: Remind mails those who have not downloaded). */
export function notDownloaded(recipients: readonly Pick<DetailRecipient, 'email' | 'downloads'>[]): string[] {
  return recipients.filter((r) => r.downloads === 0).map((r) => r.email);
}

export interface FolderGroup {
  /** '' for files sent on their own */
  readonly folder: string;
  readonly files: readonly DetailFile[];
  readonly size: number;
}

/** The folder of a file: its itemPath without the last segment ('photos/2024/a.jpg' -> 'photos/2024'). */
export function folderOf(file: Pick<DetailFile, 'itemPath'>): string {
  const path = file.itemPath ?? '';
  const cut = path.lastIndexOf('/');
  return cut > 0 ? path.slice(0, cut) : '';
}

/** Loose files first, then each folder by name; files keep the transfer's order. */
export function groupByFolder(files: readonly DetailFile[]): FolderGroup[] {
  const groups = new Map<string, DetailFile[]>();
  for (const file of files) {
    const folder = folderOf(file);
    const list = groups.get(folder) ?? [];
    list.push(file);
    groups.set(folder, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
    .map(([folder, list]) => ({ folder, files: list, size: list.reduce((sum, f) => sum + f.size, 0) }));
}

/** Codes for "no country known": the app's 'XX' and ICU's own 'ZZ' (Unknown Region). */
const UNKNOWN_COUNTRIES = new Set(['XX', 'ZZ']);

/** Country name in the reader's language; null for 'XX' and codes Intl does not know (shown as Unknown). */
export function countryName(code: string, language: string): string | null {
  const upper = code.toUpperCase();
  if (!/^[A-Z]{2}$/u.test(upper) || UNKNOWN_COUNTRIES.has(upper)) return null;
  try {
    const name = new Intl.DisplayNames([localeOf(language)], { type: 'region', fallback: 'none' }).of(upper);
    return name ?? null;
  } catch {
    return null;
  }
}

export function formatDateTime(ms: number, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

export function formatDay(ms: number, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium' }).format(new Date(ms));
}
