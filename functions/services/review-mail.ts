/**
 * The sender's batched review mail (docs/decisions/0079): at most one per transfer per
 * REVIEW_MAIL_BATCH_MS, holding every comment and decision of recipients since the last one. The
 * recipient routes queue activity on the transfer's marker (services/reviews.ts, data/reviews.ts
 * notePending); this job, on its 1-minute schedule, mails each marker that is due.
 */
import { TRANSFER_SUBJECT } from '../domain/review';
import { firstFileNameOf } from '../domain/transfer-search';
import type { ReviewMailItem } from '../adapters/mail/templates';
import * as data from '../data/reviews';
import { getTransfer, listFiles } from '../data/transfers';
import { errorFields, log } from '../lib/log';
import { mailReviewActivity } from './mail';

export interface ReviewMailRunResult {
  readonly examined: number;
  readonly mailed: number;
  /** markers taken without a mail: the transfer is gone, its review off, or nothing new was found */
  readonly skipped: number;
  readonly failed: number;
}

/** One due marker: claimed (one run wins), then everything since the last mail, in one mail. */
async function mailOne(slug: string, dueAt: number, now: number): Promise<'mailed' | 'skipped' | 'lost'> {
  const marker = await data.claimDueMail(slug, dueAt, now);
  if (!marker) return 'lost';
  const t = await getTransfer(slug);
  if (!t?.review?.enabled || t.status === 'deleted' || t.status === 'cancelled' || t.purged) return 'skipped';
  const from = Math.max(marker.pendingSince ?? 0, marker.lastMailAt);
  const [comments, decisions, files] = await Promise.all([
    data.listCommentsBetween(slug, from, now),
    data.listDecisions(slug),
    listFiles(slug),
  ]);
  const nameOf = (fileId: string) => files.find((f) => f.fileId === fileId)?.fileName ?? fileId;
  const items: (ReviewMailItem & { at: number })[] = [];
  for (const c of comments) {
    if (c.author.kind === 'sender') continue;
    const verified = c.author.kind === 'verified';
    const who = c.author.kind === 'verified' ? c.author.email : c.author.name;
    items.push({ kind: 'comment', who, verified, fileName: nameOf(c.fileId), body: c.body, at: c.createdAt });
  }
  const decided = decisions.filter((d) => d.at >= from && d.at < now);
  for (const d of decided) {
    const who = d.author.kind === 'verified' ? d.author.email : d.author.name;
    items.push({
      kind: d.decision,
      who,
      verified: d.author.kind === 'verified',
      ...(d.subject !== TRANSFER_SUBJECT ? { fileName: nameOf(d.subject) } : {}),
      ...(d.note !== undefined ? { note: d.note } : {}),
      at: d.at,
    });
  }
  if (items.length === 0) return 'skipped';
  items.sort((a, b) => a.at - b.at);
  const ok = await mailReviewActivity(t, {
    title: t.fileName ?? firstFileNameOf(files),
    comments: items.filter((i) => i.kind === 'comment').length,
    approvals: items.filter((i) => i.kind === 'approved').length,
    changesRequested: items.filter((i) => i.kind === 'changes_requested').length,
    items: items.map(({ at: _at, ...item }) => item),
  });
  if (!ok) throw new Error('review mail not sent');
  return 'mailed';
}

/** The scheduled job: every review mail due by `now` (gsi2 partition REVIEWMAIL), a page at a time. */
export async function runDueReviewMail(
  opts: { now?: number; pageSize?: number; timeLeftMs?: () => number } = {},
): Promise<ReviewMailRunResult> {
  const now = opts.now ?? Date.now();
  const timeLeft = opts.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const result = { examined: 0, mailed: 0, skipped: 0, failed: 0 };
  for (;;) {
    const due = await data.dueMailSlugs(now, opts.pageSize ?? 25);
    if (due.length === 0) return result;
    let progressed = false;
    for (const { slug, dueAt } of due) {
      if (timeLeft() < 15_000) return result;
      result.examined += 1;
      try {
        const outcome = await mailOne(slug, dueAt, now);
        if (outcome !== 'lost') progressed = true;
        if (outcome === 'mailed') result.mailed += 1;
        if (outcome === 'skipped') result.skipped += 1;
      } catch (err) {
        // claimed already: the activity is not mailed again (a mail that fails is logged, like every product mail)
        progressed = true;
        result.failed += 1;
        log.error('review mail failed', { slug, ...errorFields(err) });
      }
    }
    // markers another run claimed leave the queue by its claim; a page of only those means it is busy
    if (!progressed) return result;
  }
}
