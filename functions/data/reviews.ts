/**
 * Reviews (functions/domain/review.ts) in the single table, all under the transfer's partition
 * `TRANSFER#<slug>` (docs/data-model.md patterns RV1-RV9): comments `REVIEW#C#<uuidv7>`, each
 * reviewer's latest decision per subject `REVIEW#D#<subject>#<reviewer>`, favourites
 * `REVIEW#F#<fileId>#<reviewer>`, and the review mail's batching marker `REVIEWMAIL` (in the
 * sparse gsi2 partition `REVIEWMAIL` while activity waits for the next mail). The settings and
 * the dashboard's counters live on the transfer item itself, so a list row reads nothing more.
 * Every review item goes when the transfer is deleted or purged (deleteReviewItems).
 */
import type {
  ReviewAnchor,
  ReviewAuthor,
  ReviewComment,
  ReviewDecision,
  ReviewSettings,
  ReviewSummary,
} from '../domain/review';
import { REVIEW_MAX_COMMENTS } from '../domain/review';
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, queryAll, table, transactOr } from './base';
import { keys, reviewKeys } from './keys';

/** What the transfer item holds of its review (beside `review`, the settings). */
export interface ReviewCounters {
  /** comments so far (threads and replies), what REVIEW_MAX_COMMENTS is checked against */
  readonly reviewComments?: number;
  /** recipients' comments since the sender last marked the review read */
  readonly reviewUnread?: number;
  /** epoch ms the sender last marked the review read */
  readonly reviewReadAt?: number;
  readonly reviewApproved?: number;
  readonly reviewChangesRequested?: number;
  readonly reviewTransferApproved?: boolean;
}

export interface FavouriteRecord {
  readonly fileId: string;
  readonly reviewer: string;
  /** how the reviewer is shown to the sender (verified address or typed name) */
  readonly name: string;
}

export interface ReviewItems {
  /** oldest first */
  readonly comments: ReviewComment[];
  readonly decisions: ReviewDecision[];
  readonly favourites: FavouriteRecord[];
}

function authorOf(v: unknown): ReviewAuthor {
  const a = (v ?? {}) as Record<string, unknown>;
  if (a.kind === 'verified') return { kind: 'verified', email: String(a.email) };
  if (a.kind === 'visitor') return { kind: 'visitor', name: String(a.name) };
  return { kind: 'sender' };
}

function commentOf(i: Record<string, unknown>): ReviewComment {
  return {
    commentId: String(i.commentId),
    fileId: String(i.fileId),
    version: Number(i.version ?? 1),
    ...(typeof i.parentId === 'string' ? { parentId: i.parentId } : {}),
    author: authorOf(i.author),
    body: String(i.body),
    ...(i.anchor && typeof i.anchor === 'object' ? { anchor: i.anchor as ReviewAnchor } : {}),
    createdAt: Number(i.createdAt),
    ...(typeof i.resolvedAt === 'number' ? { resolvedAt: i.resolvedAt } : {}),
  };
}

function decisionOf(i: Record<string, unknown>): ReviewDecision {
  return {
    subject: String(i.subject),
    reviewer: String(i.reviewer) as ReviewDecision['reviewer'],
    author: authorOf(i.author) as ReviewDecision['author'],
    decision: i.decision === 'approved' ? 'approved' : 'changes_requested',
    version: Number(i.version ?? 0),
    ...(typeof i.note === 'string' ? { note: i.note } : {}),
    at: Number(i.at),
  };
}

function favouriteOf(i: Record<string, unknown>): FavouriteRecord {
  return { fileId: String(i.fileId), reviewer: String(i.reviewer), name: String(i.name) };
}

/**
 * Pattern RV1: a new comment, with the transfer's counters in one transaction (the comment
 * count stays within REVIEW_MAX_COMMENTS however many write at once). `full` when the review
 * holds its most comments already (or the transfer item is gone).
 */
export async function putComment(
  slug: string,
  c: ReviewComment,
  opts: { readonly unread: boolean },
): Promise<'full' | null> {
  return transactOr(
    [
      {
        Put: {
          TableName: table(),
          Item: { ...reviewKeys.comment(slug, c.commentId), entity: 'ReviewComment', ...c },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: table(),
          Key: keys.transfer(slug),
          UpdateExpression: opts.unread ? 'ADD reviewComments :one, reviewUnread :one' : 'ADD reviewComments :one',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(reviewComments) OR reviewComments < :max)',
          ExpressionAttributeValues: { ':one': 1, ':max': REVIEW_MAX_COMMENTS },
        },
      },
    ],
    [undefined, 'full'] as const,
  );
}

/** Pattern RV2: one comment, or undefined. */
export async function getComment(slug: string, commentId: string): Promise<ReviewComment | undefined> {
  const out = await ddb().get({ TableName: table(), Key: reviewKeys.comment(slug, commentId), ConsistentRead: true });
  return out.Item ? commentOf(out.Item) : undefined;
}

/** Pattern RV3: everything of a transfer's review in one Query (comments oldest first). */
export async function listReviewItems(slug: string): Promise<ReviewItems> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': reviewKeys.prefix },
    ConsistentRead: true,
  });
  const out: ReviewItems = { comments: [], decisions: [], favourites: [] };
  for (const i of items) {
    const sk = String(i.sk);
    if (sk.startsWith(reviewKeys.commentPrefix)) out.comments.push(commentOf(i));
    else if (sk.startsWith(reviewKeys.decisionPrefix)) out.decisions.push(decisionOf(i));
    else if (sk.startsWith(reviewKeys.favouritePrefix)) out.favourites.push(favouriteOf(i));
  }
  return out;
}

/** The sort key of the first comment id made at `at` or later (UUIDv7: 48 bits of ms first). */
function commentKeyAt(at: number): string {
  const hex = Math.max(0, Math.floor(at)).toString(16).padStart(12, '0');
  return `${reviewKeys.commentPrefix}${hex.slice(0, 8)}-${hex.slice(8)}`;
}

/** Pattern RV4: the comments made in [from, to), oldest first (a range of the time-ordered ids). */
export async function listCommentsBetween(slug: string, from: number, to: number): Promise<ReviewComment[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':a': commentKeyAt(from), ':b': commentKeyAt(to) },
    ConsistentRead: true,
  });
  return items.map(commentOf).filter((c) => c.createdAt >= from && c.createdAt < to);
}

/** Pattern RV5: resolve (or with undefined re-open) a thread's first comment; false when there is none. */
export async function setResolved(slug: string, commentId: string, resolvedAt: number | undefined): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: reviewKeys.comment(slug, commentId),
      ...(resolvedAt === undefined
        ? { UpdateExpression: 'REMOVE resolvedAt' }
        : { UpdateExpression: 'SET resolvedAt = :r', ExpressionAttributeValues: { ':r': resolvedAt } }),
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(parentId)',
    }),
  );
}

/** Pattern RV6: a reviewer's decision on a subject replaces their earlier one. */
export async function putDecision(slug: string, d: ReviewDecision): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: { ...reviewKeys.decision(slug, d.subject, d.reviewer), entity: 'ReviewDecision', ...d },
  });
}

/** Pattern RV6b: every reviewer's latest decision per subject. */
export async function listDecisions(slug: string): Promise<ReviewDecision[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': reviewKeys.decisionPrefix },
    ConsistentRead: true,
  });
  return items.map(decisionOf);
}

/** Pattern RV7: a reviewer's favourite, set or taken back (both idempotent). */
export async function setFavourite(slug: string, f: FavouriteRecord, on: boolean): Promise<void> {
  const key = reviewKeys.favourite(slug, f.fileId, f.reviewer);
  if (on) await ddb().put({ TableName: table(), Item: { ...key, entity: 'ReviewFavourite', ...f } });
  else await ddb().delete({ TableName: table(), Key: key });
}

/** Pattern RV8: the review's settings on the transfer item; false when the transfer is gone. */
export async function setReviewSettings(slug: string, settings: ReviewSettings): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression: 'SET review = :r',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':r': settings },
    }),
  );
}

/** Pattern RV8b: the dashboard's decision counts, recomputed after each decision. */
export async function setDecisionCounts(
  slug: string,
  counts: Pick<ReviewSummary, 'approved' | 'changesRequested' | 'transferApproved'>,
): Promise<void> {
  await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression: 'SET reviewApproved = :a, reviewChangesRequested = :c, reviewTransferApproved = :t',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':a': counts.approved,
        ':c': counts.changesRequested,
        ':t': counts.transferApproved,
      },
    }),
  );
}

/** Pattern RV8c: the sender saw every comment so far. */
export async function markReviewRead(slug: string, at: number): Promise<void> {
  await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression: 'SET reviewReadAt = :at, reviewUnread = :zero',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at, ':zero': 0 },
    }),
  );
}

// ---- the review mail's batching (pattern RV9) --------------------------------------------------

/** What recipients did since the last review mail (the marker's pending counts). */
export interface PendingActivity {
  readonly comments: number;
  readonly approvals: number;
  readonly changesRequested: number;
}

export interface MailMarker extends PendingActivity {
  /** when the last review mail of the transfer went (0: never) */
  readonly lastMailAt: number;
  /** the first activity waiting for the next mail; absent when nothing waits */
  readonly pendingSince?: number;
  /** when the next mail is due (absent when nothing waits) */
  readonly dueAt?: number;
  /** the bell notification of the activity waiting (one per burst) */
  readonly notifyId?: string;
}

function markerOf(i: Record<string, unknown> | undefined): MailMarker {
  const n = (k: string) => (typeof i?.[k] === 'number' ? (i[k] as number) : undefined);
  return {
    lastMailAt: n('lastMailAt') ?? 0,
    comments: n('pendingComments') ?? 0,
    approvals: n('pendingApprovals') ?? 0,
    changesRequested: n('pendingChanges') ?? 0,
    ...(n('pendingSince') !== undefined ? { pendingSince: n('pendingSince')! } : {}),
    ...(n('dueAt') !== undefined ? { dueAt: n('dueAt')! } : {}),
    ...(typeof i?.notifyId === 'string' ? { notifyId: i.notifyId } : {}),
  };
}

export async function getMailMarker(slug: string): Promise<MailMarker> {
  const out = await ddb().get({ TableName: table(), Key: reviewKeys.mail(slug), ConsistentRead: true });
  return markerOf(out.Item);
}

/**
 * Pattern RV9a: adds activity to what waits for the next mail. The first activity after a mail
 * sets when the next is due (`dueAt`, never earlier than a batch window after the last mail) and
 * puts the marker in the job's queue; later activity only adds to the counts. Answers the marker
 * as it is now.
 */
export async function notePending(
  slug: string,
  activity: PendingActivity,
  dueAt: number,
  now: number,
): Promise<MailMarker> {
  const out = await ddb().update({
    TableName: table(),
    Key: reviewKeys.mail(slug),
    UpdateExpression:
      'SET entity = :e, pendingSince = if_not_exists(pendingSince, :now), dueAt = if_not_exists(dueAt, :due), ' +
      'gsi2pk = :gpk, gsi2sk = if_not_exists(gsi2sk, :gsk) ' +
      'ADD pendingComments :c, pendingApprovals :a, pendingChanges :x',
    ExpressionAttributeValues: {
      ':e': 'ReviewMail',
      ':now': now,
      ':due': dueAt,
      ':gpk': reviewKeys.mailPartition,
      ':gsk': reviewKeys.mailIndex(dueAt, slug).gsi2sk,
      ':c': activity.comments,
      ':a': activity.approvals,
      ':x': activity.changesRequested,
    },
    ReturnValues: 'ALL_NEW',
  });
  return markerOf(out.Attributes);
}

/**
 * Pattern RV9b: the burst's bell notification, in place of `was` (none, or one that is gone);
 * false when another write recorded a different one first.
 */
export async function setMarkerNotification(slug: string, notifyId: string, was: string | undefined): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: reviewKeys.mail(slug),
      UpdateExpression: 'SET notifyId = :n',
      ConditionExpression:
        was === undefined
          ? 'attribute_exists(pk) AND attribute_not_exists(notifyId)'
          : 'attribute_exists(pk) AND notifyId = :was',
      ExpressionAttributeValues: { ':n': notifyId, ...(was === undefined ? {} : { ':was': was }) },
    }),
  );
}

/** Pattern RV9c: the slugs whose review mail is due by `now`, soonest first (a page of the sparse partition). */
export async function dueMailSlugs(now: number, limit: number): Promise<{ slug: string; dueAt: number }[]> {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p AND gsi2sk <= :upTo',
    ExpressionAttributeValues: { ':p': reviewKeys.mailPartition, ':upTo': reviewKeys.mailUpTo(now) },
    Limit: limit,
  });
  return (out.Items ?? []).map((i) => {
    const [due, ...rest] = String(i.gsi2sk).split('#');
    return { slug: rest.join('#'), dueAt: Number(due) };
  });
}

/**
 * Pattern RV9d: claims a due mail: the marker leaves the queue, its counts and notification are
 * cleared and `lastMailAt` is now, only while it is still due at `dueAt` (one run wins). Answers
 * the marker as it was (what the mail covers), or null when another run claimed it.
 */
export async function claimDueMail(slug: string, dueAt: number, now: number): Promise<MailMarker | null> {
  const old = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: reviewKeys.mail(slug),
      UpdateExpression:
        'SET lastMailAt = :now REMOVE pendingSince, dueAt, gsi2pk, gsi2sk, notifyId, pendingComments, pendingApprovals, pendingChanges',
      ConditionExpression: 'dueAt = :due',
      ExpressionAttributeValues: { ':now': now, ':due': dueAt },
      ReturnValues: 'ALL_OLD',
    }),
  );
  return old === null ? null : markerOf(old);
}

/** Every review item of a transfer and its mail marker go (the transfer was deleted or purged). */
export async function deleteReviewItems(slug: string): Promise<number> {
  const found = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': reviewKeys.prefix },
    ProjectionExpression: 'pk, sk',
  });
  const all = [...found.map((i) => ({ pk: i.pk, sk: i.sk })), reviewKeys.mail(slug)];
  for (let i = 0; i < all.length; i += 25) {
    let requests = all.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('BatchWrite left unprocessed review items');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await ddb().batchWrite({ RequestItems: { [table()]: requests } });
      requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
  return found.length;
}
