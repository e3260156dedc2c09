/**
 * The sender's review as its screen and its exports read it: threads grouped by file with their
 * replies, pins numbered per image, each reviewer's decisions per file, and the CSV export. Pure
 * (no zod, no I/O): the TransferModal's review chunk and the unit tests share it.
 */
import { formatCsv } from './csv';
import {
  formatTimecode,
  type ReviewAnchor,
  type ReviewAuthor,
  type ReviewComment,
  type ReviewDecision,
} from './review';
import type { ReviewFileView, SenderReviewView } from './review-api';

/** A thread: its first comment, the replies oldest first, and the pin number of a point anchor. */
export interface ReviewThread {
  readonly root: ReviewComment;
  readonly replies: readonly ReviewComment[];
  /** 1, 2, … per file in the order the pins were placed; absent for other anchors */
  readonly pin?: number;
}

export interface ReviewFileGroup {
  readonly file: ReviewFileView;
  /** oldest first */
  readonly threads: readonly ReviewThread[];
  /** every reviewer's latest decision on this file */
  readonly decisions: readonly ReviewDecision[];
  /** who favourited it */
  readonly favourites: readonly string[];
}

const byTime = (a: { createdAt: number }, b: { createdAt: number }) => a.createdAt - b.createdAt;

/** Threads of one list of comments, oldest first; replies whose thread is missing are dropped. */
export function threadsOf(comments: readonly ReviewComment[]): ReviewThread[] {
  const roots = comments.filter((c) => c.parentId === undefined).sort(byTime);
  const replies = new Map<string, ReviewComment[]>();
  for (const c of comments) {
    if (c.parentId === undefined) continue;
    const list = replies.get(c.parentId) ?? [];
    list.push(c);
    replies.set(c.parentId, list);
  }
  let pins = 0;
  return roots.map((root) => {
    const thread: ReviewThread = { root, replies: (replies.get(root.commentId) ?? []).sort(byTime) };
    if (root.anchor?.kind !== 'point') return thread;
    pins += 1;
    return { ...thread, pin: pins };
  });
}

/** The review per file, in the review's file order; a file's threads carry pins numbered for that file. */
export function groupByFile(view: Pick<SenderReviewView, 'files' | 'comments' | 'decisions' | 'favourites'>) {
  return view.files.map(
    (file): ReviewFileGroup => ({
      file,
      threads: threadsOf(view.comments.filter((c) => c.fileId === file.fileId)),
      decisions: view.decisions.filter((d) => d.subject === file.fileId),
      favourites: view.favourites[file.fileId] ?? [],
    }),
  );
}

/** The whole-transfer decisions, latest first. */
export function transferDecisions(decisions: readonly ReviewDecision[]): ReviewDecision[] {
  return decisions.filter((d) => d.subject === 'transfer').sort((a, b) => b.at - a.at);
}

/** Comments by recipients newer than the sender's last read (the modal marks them). */
export function isUnread(c: ReviewComment, readAt: number): boolean {
  return c.author.kind !== 'sender' && c.createdAt > readAt;
}

/** "at 0:05", "page 2", "pin 1": an anchor as the review and its exports name it (English). */
export function anchorText(anchor: ReviewAnchor | undefined, pin?: number): string {
  if (!anchor) return '';
  if (anchor.kind === 'time') return `at ${formatTimecode(anchor.seconds)}`;
  if (anchor.kind === 'page') return `page ${anchor.page}`;
  return `pin ${pin ?? 1}`;
}

/** A comment's or decision's author in English: the address, "Name (unverified)", or "Sender". */
export function authorText(author: ReviewAuthor): string {
  if (author.kind === 'verified') return author.email;
  if (author.kind === 'visitor') return `${author.name} (unverified)`;
  return 'Sender';
}

const DECISION_TEXT = { approved: 'Approved', changes_requested: 'Changes requested' } as const;

export const REVIEW_CSV_HEADER = [
  'Type',
  'File',
  'Version',
  'Anchor',
  'Author',
  'Verified',
  'Text',
  'Date',
  'Resolved',
] as const;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The review's CSV: every comment (threads, then their replies) per file, then the decisions
 * (files and the whole transfer). Dates are UTC ISO 8601; cells go through csvCell (quoting and
 * the formula guard), so a comment starting with "=" stays text in a spreadsheet.
 */
export function reviewCsv(view: Pick<SenderReviewView, 'files' | 'comments' | 'decisions' | 'favourites'>): string {
  const rows: string[][] = [[...REVIEW_CSV_HEADER]];
  const verified = (a: ReviewAuthor) => (a.kind === 'visitor' ? 'no' : 'yes');
  const groups = groupByFile(view);
  for (const group of groups) {
    const name = group.file.fileName;
    for (const thread of group.threads) {
      const { root } = thread;
      rows.push([
        'comment',
        name,
        String(root.version),
        anchorText(root.anchor, thread.pin),
        authorText(root.author),
        verified(root.author),
        root.body,
        iso(root.createdAt),
        root.resolvedAt === undefined ? 'no' : `yes (${iso(root.resolvedAt)})`,
      ]);
      for (const reply of thread.replies) {
        rows.push([
          'reply',
          name,
          String(reply.version),
          anchorText(root.anchor, thread.pin),
          authorText(reply.author),
          verified(reply.author),
          reply.body,
          iso(reply.createdAt),
          '',
        ]);
      }
    }
  }
  const decisionRow = (d: ReviewDecision, fileName: string, version: string) => [
    'decision',
    fileName,
    version,
    '',
    authorText(d.author),
    verified(d.author),
    d.note ? `${DECISION_TEXT[d.decision]}: ${d.note}` : DECISION_TEXT[d.decision],
    iso(d.at),
    '',
  ];
  for (const group of groups) {
    for (const d of [...group.decisions].sort((a, b) => a.at - b.at)) {
      rows.push(decisionRow(d, group.file.fileName, String(d.version)));
    }
  }
  for (const d of transferDecisions(view.decisions).reverse()) rows.push(decisionRow(d, '(whole transfer)', ''));
  return formatCsv(rows);
}

/** The export's file name: review-<transfer>-<yyyy-mm-dd>.csv|pdf (UTC day). */
export function reviewExportName(slug: string, at: number, ext: 'csv' | 'pdf'): string {
  return `review-${slug.replace(/[^A-Za-z0-9_-]/gu, '')}-${iso(at).slice(0, 10)}.${ext}`;
}
