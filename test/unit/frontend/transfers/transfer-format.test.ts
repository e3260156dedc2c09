import { createInstance, type TFunction, type i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPIRING_SOON_MS, type DetailFile, type TransferDetail } from '@domain/dashboard-api';
import { CUSTOM_DATE_MARKER, CUSTOM_EXPIRY_MIN_AHEAD_MS } from '@domain/expiry';
import { formatSize } from '@/lib/format-size';
import { availableActions, expiryChoiceProblem } from '@/features/transfers/action-rules';
import { filterCount, listSearch, readListParams } from '@/features/transfers/list-params';
import {
  countryName,
  expiryPhase,
  expiryText,
  groupByFolder,
  moreFiles,
  notDownloaded,
  recipientStatus,
  recipientsSummary,
  relativeParts,
} from '@/features/transfers/transfer-format';
import transfersEn from '@/i18n/locales/transfers/en.json';

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const DAY = 24 * 3600 * 1000;
const HOUR = 3600 * 1000;

let i18n: I18n;
/** The transfers catalogue's English texts, typed by its keys. */
let t: TFunction<'transfers'>;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.init({
    lng: 'en',
    ns: ['transfers'],
    defaultNS: 'transfers',
    resources: { en: { transfers: transfersEn } },
    interpolation: { escapeValue: false },
  });
  t = i18n.getFixedT('en', 'transfers') as TFunction<'transfers'>;
});

/** The row's expiry as the list shows it in English. */
function expiryLine(row: { state: 'active' | 'expired' | 'deleted'; expiryDate: number }): string {
  const text = expiryText(row, NOW, 'en');
  return t(text.key, { when: text.when });
}

describe('expiry state (spec §4)', () => {
  it('reads "Expires in 3 days" and "Expired 2 days ago"', () => {
    expect(expiryLine({ state: 'active', expiryDate: NOW + 3 * DAY })).toBe('Expires in 3 days');
    expect(expiryLine({ state: 'expired', expiryDate: NOW - 2 * DAY })).toBe('Expired 2 days ago');
    expect(expiryLine({ state: 'active', expiryDate: NOW + 5 * HOUR })).toBe('Expires in 5 hours');
    expect(expiryLine({ state: 'active', expiryDate: NOW + 20 * 60_000 })).toBe('Expires in 20 minutes');
    expect(expiryLine({ state: 'deleted', expiryDate: NOW + DAY })).toBe('Deleted');
  });

  it('is expired once the date passed even before the sweep marks it, and expiring soon under 2.2 days', () => {
    expect(expiryPhase({ state: 'active', expiryDate: NOW - 1 }, NOW)).toBe('expired');
    expect(expiryLine({ state: 'active', expiryDate: NOW - 3 * HOUR })).toBe('Expired 3 hours ago');
    expect(expiryPhase({ state: 'active', expiryDate: NOW + EXPIRING_SOON_MS - 1 }, NOW)).toBe('expiring');
    expect(expiryPhase({ state: 'active', expiryDate: NOW + EXPIRING_SOON_MS + 1000 }, NOW)).toBe('active');
    expect(expiryPhase({ state: 'deleted', expiryDate: NOW + DAY }, NOW)).toBe('deleted');
  });

  it('never says "in 0 minutes", and rounds to whole units', () => {
    expect(relativeParts(10_000)).toEqual({ value: 1, unit: 'minute' });
    expect(relativeParts(-90 * 60_000)).toEqual({ value: 2, unit: 'hour' });
    expect(relativeParts(36 * HOUR)).toEqual({ value: 2, unit: 'day' });
  });

  it('speaks the reader language', () => {
    expect(expiryText({ state: 'active', expiryDate: NOW + 3 * DAY }, NOW, 'de').when).toBe('in 3 Tagen');
    expect(expiryText({ state: 'expired', expiryDate: NOW - 2 * DAY }, NOW, 'fr').when).toBe('il y a 2 jours');
  });
});

describe('row summaries', () => {
  it('recipients: Link for a link send, the one address, or the first plus "+ n"', () => {
    expect(recipientsSummary({ sendAs: 'link', recipients: [] })).toEqual({ kind: 'link' });
    expect(recipientsSummary({ sendAs: 'email', recipients: ['a@x.io'] })).toEqual({ kind: 'one', first: 'a@x.io' });
    const more = recipientsSummary({ sendAs: 'email', recipients: ['a@x.io', 'b@x.io', 'c@x.io'] });
    expect(more).toEqual({ kind: 'more', first: 'a@x.io', more: 2 });
    expect(t('list.recipientsMore', { first: 'a@x.io', more: more.kind === 'more' ? more.more : 0 })).toBe(
      'a@x.io + 2',
    );
    expect(t('list.link')).toBe('Link');
  });

  it('files: the first name and "+n files"', () => {
    expect(moreFiles({ fileCount: 1 })).toBe(0);
    expect(moreFiles({ fileCount: 3 })).toBe(2);
    expect(t('list.moreFiles', { count: 2 })).toBe('+2 files');
    expect(t('list.moreFiles', { count: 1 })).toBe('+1 file');
  });

  it('size in decimal units of the reader language', () => {
    expect(formatSize(1_500_000_000, 'en')).toBe('1.5 GB');
    expect(formatSize(2_345_000, 'en')).toBe('2.3 MB');
    expect(formatSize(0, 'en')).toBe('0 B');
  });
});

describe('per-recipient status', () => {
  it('downloaded n times with the last time, or not downloaded yet', () => {
    expect(recipientStatus({ downloads: 2, lastDownloadAt: NOW })).toEqual({
      kind: 'downloaded',
      times: 2,
      lastAt: NOW,
    });
    expect(recipientStatus({ downloads: 1 })).toEqual({ kind: 'downloaded', times: 1, lastAt: null });
    expect(recipientStatus({ downloads: 0 })).toEqual({ kind: 'waiting' });
    expect(t('modal.downloadedTimes', { count: 2, when: 'Nov 20' })).toBe('Downloaded 2 times, last on Nov 20');
    expect(t('modal.notDownloaded')).toBe('Not downloaded yet');
  });

  it('a reminder goes to those who have not downloaded', () => {
    expect(
      notDownloaded([
        { email: 'a@x.io', downloads: 1 },
        { email: 'b@x.io', downloads: 0 },
        { email: 'c@x.io', downloads: 0 },
      ]),
    ).toEqual(['b@x.io', 'c@x.io']);
  });
});

describe('files by folder and countries', () => {
  const file = (fileName: string, itemPath?: string, size = 10): DetailFile => ({
    fileId: fileName.padEnd(10, 'x').slice(0, 10),
    fileName,
    size,
    ...(itemPath ? { itemPath } : {}),
  });

  it('lists loose files first, then each folder by name, with its size', () => {
    const groups = groupByFolder([
      file('b.jpg', 'photos/2024/b.jpg'),
      file('readme.txt'),
      file('a.jpg', 'photos/a.jpg', 5),
      file('c.jpg', 'photos/2024/c.jpg'),
    ]);
    expect(groups.map((g) => [g.folder, g.files.map((f) => f.fileName), g.size])).toEqual([
      ['', ['readme.txt'], 10],
      ['photos', ['a.jpg'], 5],
      ['photos/2024', ['b.jpg', 'c.jpg'], 20],
    ]);
  });

  it('names a country in the reader language; XX and unknown codes are Unknown (null)', () => {
    expect(countryName('DE', 'en')).toBe('Germany');
    expect(countryName('de', 'de')).toBe('Deutschland');
    expect(countryName('JP', 'ja')).toBe('日本');
    expect(countryName('XX', 'en')).toBeNull();
    expect(countryName('ZZ', 'en')).toBeNull();
    expect(countryName('QQ', 'en')).toBeNull();
    expect(countryName('', 'en')).toBeNull();
  });
});

describe('modal actions by state (spec §4)', () => {
  const base: Pick<TransferDetail, 'state' | 'expiryDate' | 'purged' | 'sendAs' | 'recipientsDetail'> = {
    state: 'active',
    expiryDate: NOW + 5 * DAY,
    purged: false,
    sendAs: 'email',
    recipientsDetail: [
      { email: 'a@x.io', link: 'l', downloads: 1 },
      { email: 'b@x.io', link: 'l', downloads: 0 },
    ],
  };
  const actions = (over: Partial<typeof base>) => [...availableActions({ ...base, ...over }, NOW)].sort();

  it('a live email transfer allows everything; Remind only while someone has not downloaded', () => {
    expect(actions({})).toEqual(['addFiles', 'delete', 'expiry', 'forward', 'limit', 'password', 'remind', 'resend']);
    expect(actions({ recipientsDetail: [{ email: 'a@x.io', link: 'l', downloads: 1 }] })).not.toContain('remind');
  });

  it('a link has no one to resend to or remind', () => {
    expect(actions({ sendAs: 'link', recipientsDetail: [] })).toEqual([
      'addFiles',
      'delete',
      'expiry',
      'forward',
      'limit',
      'password',
    ]);
  });

  it('expired: no adding, mailing or reminding; purged: only delete; deleted: nothing', () => {
    expect(actions({ state: 'expired', expiryDate: NOW - DAY })).toEqual([
      'delete',
      'expiry',
      'forward',
      'limit',
      'password',
    ]);
    expect(actions({ state: 'expired', expiryDate: NOW - DAY, purged: true })).toEqual(['delete']);
    expect(actions({ state: 'deleted' })).toEqual([]);
  });

  it('a custom expiry needs a date 30 minutes to a year ahead; presets need none', () => {
    expect(expiryChoiceProblem(604800, null, NOW)).toBeNull();
    expect(expiryChoiceProblem(CUSTOM_DATE_MARKER, null, NOW)).toBe('customExpiryRequired');
    expect(expiryChoiceProblem(CUSTOM_DATE_MARKER, NOW + 10 * 60_000, NOW)).toBe('expiryTooSoon');
    expect(expiryChoiceProblem(CUSTOM_DATE_MARKER, NOW + 400 * DAY, NOW)).toBe('expiryTooLate');
    expect(expiryChoiceProblem(CUSTOM_DATE_MARKER, NOW + CUSTOM_EXPIRY_MIN_AHEAD_MS, NOW)).toBeNull();
  });
});

describe('list address (?filter=&q=)', () => {
  it('reads unknown filters as all, trims the search, and writes the default list as no query', () => {
    expect(readListParams(new URLSearchParams('filter=unseen&q=%20report%20'))).toEqual({
      filter: 'unseen',
      q: 'report',
    });
    expect(readListParams(new URLSearchParams('filter=bogus'))).toEqual({ filter: 'all', q: '' });
    expect(listSearch({ filter: 'all', q: '' })).toBe('');
    expect(listSearch({ filter: 'expiring', q: 'a b' })).toBe('?filter=expiring&q=a+b');
  });

  it('every filter tab shows its count from the answer', () => {
    const counts = { allCount: 9, activeCount: 6, expiredCount: 3, unseenCount: 4, expiringCount: 2, sharedCount: 1 };
    expect(
      ['all', 'active', 'expired', 'unseen', 'expiring', 'shared'].map((f) => filterCount(f as 'all', counts)),
    ).toEqual([9, 6, 3, 4, 2, 1]);
    expect(filterCount('all', undefined)).toBeNull();
    // a list cached by an older version has no unseen count: the tab waits for the fresh answer
    expect(filterCount('unseen', { allCount: 9, activeCount: 6, expiredCount: 3 })).toBeNull();
  });
});
