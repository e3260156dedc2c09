/**
 * The dashboard's view of a sender's transfers: GET /getQs pages (filters all /
 * active / expired / unseen / expiring soon, paging by `skip`, search) with the counts, and
 * GET /getQs?slug= for the TransferModal. Reads only; the writes that keep the list indexes and
 * counters right live with the writes themselves (data/transfers.ts).
 */
import {
  DETAIL_MAX_DOWNLOADS,
  EXPIRING_SOON_MS,
  LIST_PAGE_SIZE,
  type DetailFile,
  type DetailRecipient,
  type ListFilter,
  type TransferDetail,
  type TransferListResponse,
  type TransferRow,
  type TransferState,
} from '../domain/dashboard-api';
import { transferMonthKey } from '../domain/blocking';
import { reviewSettingsState, reviewSummaryOf } from '../domain/review';
import { firstFileNameOf, normaliseSearch } from '../domain/transfer-search';
import { keys } from '../data/keys';
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import { fileScanView } from '../domain/malware-scan';
import { countExpiredUnswept, countListed, listItems, transferStats, type ListSource } from '../data/transfer-list';
import { listDownloads } from '../data/download-events';
import { downloadedBy, getReminder } from '../data/reminders';
import { monthlyTransfers, type UserProfile } from '../data/users';
import { downloadLink, recipientLink } from './transfers';
import { currentTeamOf, managesTransfer, requireReader, teamOfTransfer } from './sharing';
import { sharedItems, sharedSlugs } from '../data/teams';
import { storageOwnerOf } from './limits';
import { linkOriginOf } from './link-origin';

/** Where each filter's rows come from, in display order (docs/data-model.md pattern 35). */
export function sourcesOf(filter: ListFilter, userId: string, now: number): ListSource[] {
  const live = keys.transferListPartition(userId, 'LIVE');
  const now_ = keys.expiryBound(now);
  switch (filter) {
    case 'all':
      return [{ index: 'gsi1', partition: keys.userTransfersPartition(userId), newestFirst: true }];
    case 'active':
      return [{ index: 'gsi3', partition: live, above: now_, newestFirst: true }];
    case 'expired':
      // Those past their expiry the sweep has not reached yet (minutes), then the swept ones.
      return [
        { index: 'gsi3', partition: live, atMost: now_, newestFirst: true },
        { index: 'gsi3', partition: keys.transferListPartition(userId, 'ENDED'), newestFirst: true },
      ];
    case 'unseen':
      return [{ index: 'gsi4', partition: keys.unseenPartition(userId), above: now_, newestFirst: true }];
    case 'expiring':
      return [
        {
          index: 'gsi3',
          partition: live,
          above: now_,
          atMost: keys.expiryBound(now + EXPIRING_SOON_MS),
          newestFirst: false,
        },
      ];
    case 'shared':
      // read by sharedPage (share items on gsi1 `SHARED#<user>`, then the transfers)
      return [];
  }
}

export function stateOf(t: Pick<TransferRecord, 'status' | 'expiryDate'>, now: number): TransferState {
  if (t.status === 'deleted' || t.status === 'cancelled') return 'deleted';
  return t.status === 'expired' || now >= t.expiryDate ? 'expired' : 'active';
}

async function rowOf(t: TransferRecord, now: number, viewer?: string): Promise<TransferRow> {
  const fileName = t.fileName ?? firstFileNameOf(await data.listFiles(t.slug));
  return {
    _id: t.slug,
    slug: t.slug,
    fileName,
    fileCount: t.fileCount,
    size: t.totalBytes,
    sendAs: t.sendAs,
    recipients: t.recipients.map((r) => r.email),
    dateSent: t.dateSent ?? t.createdAt,
    expiryDate: t.expiryDate,
    state: stateOf(t, now),
    total_downloads: t.totalDownloads ?? 0,
    hasPassword: !!t.passwordHash,
    region: t.region,
    ...(viewer !== undefined && !managesTransfer(t, viewer) ? { sharedBy: t.senderEmail } : {}),
    ...(t.review?.enabled ? { review: reviewSummaryOf(t) } : {}),
    ...(t.e2e ? { e2e: t.e2e.mode } : {}),
  };
}

/**
 * The transfers shared with the caller, newest first: a Query of share items, then
 * the transfers (pattern T9). Only those of the team the caller is on now: a share item that
 * outlived its membership (a race with the removal, an old item) shows nothing.
 */
async function sharedPage(
  userId: string,
  team: string | undefined,
  skip: number,
  search: string | undefined,
): Promise<{ items: TransferRecord[]; hasMore: boolean }> {
  if (team === undefined) return { items: [], hasMore: false };
  const want = skip + LIST_PAGE_SIZE + 1;
  const items: TransferRecord[] = [];
  let seen = 0;
  for await (const slug of sharedSlugs(userId, Math.min(Math.max(want, LIST_PAGE_SIZE + 1), 200))) {
    const t = await data.getTransfer(slug);
    if (!t || (t.status !== 'ready' && t.status !== 'expired')) continue;
    if (teamOfTransfer(t) !== team) continue;
    if (search && !(t.searchText ?? '').includes(search)) continue;
    seen += 1;
    if (seen > skip) items.push(t);
    if (seen >= want) break;
  }
  return { items: items.slice(0, LIST_PAGE_SIZE), hasMore: items.length > LIST_PAGE_SIZE };
}

/** How many share items of the caller belong to the team they are on now (older items without a team: the transfer's). */
async function sharedCountOf(userId: string, team: string | undefined): Promise<number> {
  if (team === undefined) return 0;
  let count = 0;
  for (const item of await sharedItems(userId)) {
    if (item.teamId !== undefined) {
      if (item.teamId === team) count += 1;
      continue;
    }
    const t = await data.getTransfer(item.slug);
    if (t && teamOfTransfer(t) === team) count += 1;
  }
  return count;
}

/** `skip` rows of the sources, then one page (and whether more follow). */
async function pageOf(
  sources: readonly ListSource[],
  skip: number,
  search: string | undefined,
): Promise<{ items: TransferRecord[]; hasMore: boolean }> {
  const want = skip + LIST_PAGE_SIZE + 1;
  const items: TransferRecord[] = [];
  let seen = 0;
  for (const source of sources) {
    // The first page reads one Query page of 21 rows; deeper pages read larger Query pages.
    const pageSize = Math.min(Math.max(want - seen, LIST_PAGE_SIZE + 1), 200);
    for await (const item of listItems(source, { search, pageSize })) {
      seen += 1;
      if (seen > skip) items.push(item);
      if (seen >= want) break;
    }
    if (seen >= want) break;
  }
  return { items: items.slice(0, LIST_PAGE_SIZE), hasMore: items.length > LIST_PAGE_SIZE };
}

/** GET /getQs: one page of the caller's transfers with the counts (spec §7). */
export async function listTransfers(
  profile: UserProfile,
  query: { filter: ListFilter; skip: number; q?: string | undefined },
  now = Date.now(),
): Promise<TransferListResponse> {
  const userId = profile.userId;
  const [owner, team] = await Promise.all([storageOwnerOf(profile), currentTeamOf(profile)]);
  const [page, stats, unswept, thisMonthsTransfers, sharedCount, unseenCount, expiringCount] = await Promise.all([
    query.filter === 'shared'
      ? sharedPage(userId, team, query.skip, normaliseSearch(query.q))
      : pageOf(sourcesOf(query.filter, userId, now), query.skip, normaliseSearch(query.q)),
    transferStats(userId),
    countExpiredUnswept(userId, now),
    monthlyTransfers(owner.userId, transferMonthKey(now)),
    sharedCountOf(userId, team),
    countSources(sourcesOf('unseen', userId, now)),
    countSources(sourcesOf('expiring', userId, now)),
  ]);
  const allCount = Math.max(0, stats.all);
  const expiredCount = Math.min(allCount, Math.max(0, stats.expired) + unswept);
  return {
    allDocs: await Promise.all(page.items.map((t) => rowOf(t, now, userId))),
    filter: query.filter,
    skip: query.skip,
    hasMore: page.hasMore,
    allCount,
    activeCount: allCount - expiredCount,
    expiredCount,
    unseenCount,
    expiringCount,
    thisMonthsTransfers,
    sharedCount,
  };
}

async function countSources(sources: readonly ListSource[]): Promise<number> {
  const counts = await Promise.all(sources.map(countListed));
  return counts.reduce((sum, n) => sum + n, 0);
}

/** GET /getQs?slug=: one transfer of the caller (or shared with the caller: read only), everything the TransferModal shows. */
/** One file of the detail; a file the malware scan has not cleared says why. */
function detailFile(f: FileRecord): DetailFile {
  const scan = fileScanView(f.scanStatus);
  return {
    fileId: f.fileId,
    fileName: f.fileName,
    ...(f.itemPath ? { itemPath: f.itemPath } : {}),
    size: f.size,
    ...(f.version !== undefined && f.versionOf !== undefined ? { version: f.version, versionOf: f.versionOf } : {}),
    ...(scan !== 'clean' ? { scan } : {}),
    ...(scan === 'removed' && f.scanFinding ? { finding: f.scanFinding } : {}),
  };
}

export async function transferDetail(slug: string, userId: string, now = Date.now()): Promise<TransferDetail> {
  const { t, manages } = await requireReader(slug, userId);
  const [files, downloads, reminder] = await Promise.all([
    data.listFiles(slug),
    listDownloads(slug, DETAIL_MAX_DOWNLOADS),
    getReminder(slug),
  ]);
  const sent = files.filter((f) => f.status === 'uploaded');
  // Past the latest downloads the modal lists, whether a recipient ever downloaded needs them all.
  const everDownloaded =
    downloads.length >= DETAIL_MAX_DOWNLOADS && t.recipients.length > 0 ? await downloadedBy(slug) : undefined;
  const origin = await linkOriginOf(t);
  const recipientsDetail: DetailRecipient[] = t.recipients.map((r) => {
    const theirs = downloads.filter((d) => d.receiverEmail === r.email);
    const remindedAt = reminder?.remindedAt[r.email];
    return {
      email: r.email,
      ...(r.name ? { name: r.name } : {}),
      link: recipientLink(slug, r.recipientId, origin),
      // at least 1 for a recipient whose downloads are all older than the ones listed
      downloads: theirs.length || (everDownloaded?.has(r.email.toLowerCase()) ? 1 : 0),
      ...(theirs[0] ? { lastDownloadAt: theirs[0].dlDate } : {}),
      ...(remindedAt !== undefined ? { remindedAt } : {}),
    };
  });
  const row = await rowOf({ ...t, fileName: t.fileName ?? firstFileNameOf(sent) }, now, userId);
  return {
    ...row,
    link: downloadLink(slug, origin),
    message: t.message,
    senderEmail: t.senderEmail,
    ...(t.senderName ? { senderName: t.senderName } : {}),
    files: sent.map(detailFile),
    recipientsDetail,
    downloads,
    expirySeconds: t.expirySeconds,
    purged: !!t.purged,
    ...(t.forwardedFrom ? { forwardedFrom: t.forwardedFrom } : {}),
    ...(manages ? {} : { readOnly: true }),
    ...(t.review?.enabled ? { reviewSettings: reviewSettingsState(t.review, now >= t.expiryDate) } : {}),
  };
}
