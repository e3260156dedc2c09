/**
 * The review view's pure rules: where a click or an arrow key puts a pin, a player's time as an
 * anchor, threads out of the flat comment list, the markers' numbers, a visitor id, and which
 * API refusal the screen shows how. No React and no DOM here, so unit tests read it directly.
 */
import type { ReviewAnchor, ReviewComment, ReviewDecision } from '@domain/review';

export type Point = { readonly x: number; readonly y: number };

/** A pin's coordinates keep 4 decimals: a tenth of a pixel on a 1,000-pixel image is plenty. */
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0.5);

/** The point of a click inside the image's box, as fractions of its width and height (0..1). */
export function pointFromClick(
  box: { readonly left: number; readonly top: number; readonly width: number; readonly height: number },
  clientX: number,
  clientY: number,
): Point {
  if (box.width <= 0 || box.height <= 0) return { x: 0.5, y: 0.5 };
  return { x: round4(clamp01((clientX - box.left) / box.width)), y: round4(clamp01((clientY - box.top) / box.height)) };
}

/** One arrow key moves a pin 2 % of the image; with Shift, 10 %. */
export const PIN_STEP = 0.02;
export const PIN_STEP_BIG = 0.1;

/** Where an arrow key moves the pin (null: the key is not an arrow); it stays inside the image. */
export function movePoint(p: Point, key: string, big: boolean): Point | null {
  const step = big ? PIN_STEP_BIG : PIN_STEP;
  const [dx, dy] =
    key === 'ArrowLeft'
      ? [-step, 0]
      : key === 'ArrowRight'
        ? [step, 0]
        : key === 'ArrowUp'
          ? [0, -step]
          : key === 'ArrowDown'
            ? [0, step]
            : [NaN, NaN];
  if (Number.isNaN(dx)) return null;
  return { x: round4(clamp01(p.x + dx)), y: round4(clamp01(p.y + dy)) };
}

/** A pin as people say it: "40 % across, 25 % down". */
export function pointPercent(p: Point): { readonly x: number; readonly y: number } {
  return { x: Math.round(p.x * 100), y: Math.round(p.y * 100) };
}

/** A player's current time as an anchor: 0 or more, at most 3 decimals (the API's rule). */
export function timeAnchor(seconds: number): ReviewAnchor {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) / 1000 : 0;
  return { kind: 'time', seconds: s };
}

/** A typed page number, or null when it is not a whole page from 1 (and at most the API's 100,000). */
export function pageOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/u.test(trimmed)) return null;
  const page = Number(trimmed);
  return page >= 1 && page <= 100_000 ? page : null;
}

export interface Thread {
  readonly root: ReviewComment;
  /** oldest first */
  readonly replies: readonly ReviewComment[];
}

/** One file's threads, oldest first, each with its replies; a reply whose thread is gone is left out. */
export function threadsOf(comments: readonly ReviewComment[], fileId: string): Thread[] {
  const own = comments.filter((c) => c.fileId === fileId);
  const byTime = (a: ReviewComment, b: ReviewComment) =>
    a.createdAt - b.createdAt || a.commentId.localeCompare(b.commentId);
  const replies = new Map<string, ReviewComment[]>();
  for (const c of own) {
    if (c.parentId === undefined) continue;
    const list = replies.get(c.parentId) ?? [];
    list.push(c);
    replies.set(c.parentId, list);
  }
  return own
    .filter((c) => c.parentId === undefined)
    .sort(byTime)
    .map((root) => ({ root, replies: (replies.get(root.commentId) ?? []).sort(byTime) }));
}

/** The number each pinned thread's marker shows: 1, 2, … in the threads' order. */
export function pinNumbers(threads: readonly Thread[]): ReadonlyMap<string, number> {
  const numbers = new Map<string, number>();
  for (const { root } of threads) if (root.anchor?.kind === 'point') numbers.set(root.commentId, numbers.size + 1);
  return numbers;
}

/** Comments (threads and replies) on a file: the count its header shows. */
export function commentCount(comments: readonly ReviewComment[], fileId: string): number {
  return comments.filter((c) => c.fileId === fileId).length;
}

/** The caller's latest decision on a subject (a file id or 'transfer'). */
export function decisionOn(decisions: readonly ReviewDecision[], subject: string): ReviewDecision | undefined {
  let latest: ReviewDecision | undefined;
  for (const d of decisions) if (d.subject === subject && (!latest || d.at >= latest.at)) latest = d;
  return latest;
}

/** 128 random bits as base64url: 22 characters (VISITOR_ID_PATTERN). */
export function visitorIdFrom(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new Error('a visitor id takes 16 random bytes');
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/gu, '-').replace(/\//gu, '_').replace(/=+$/u, '');
}

/** How the screen answers a refused write or read. */
export type ReviewProblem =
  /** 429: too many comments; try again in `minutes` */
  | { readonly kind: 'rateLimited'; readonly minutes: number }
  /** 409 review_closed: closed by the sender, or the transfer expired; read only from now */
  | { readonly kind: 'closed' }
  | { readonly kind: 'full' }
  | { readonly kind: 'off' }
  /** 401 reviewer_required: ask who they are (again) */
  | { readonly kind: 'identity' }
  | { readonly kind: 'invalid'; readonly code: string }
  | { readonly kind: 'notFound' }
  | { readonly kind: 'network' }
  | { readonly kind: 'other' }
  /** the reviewer closed "who is commenting?": nothing was sent, what they wrote stays */
  | { readonly kind: 'cancelled' };

/** An ApiError (status, code, details) as one of the screen's problems. */
export function problemOf(error: unknown): ReviewProblem {
  if (typeof error !== 'object' || error === null || !('status' in error) || !('code' in error))
    return { kind: 'other' };
  const { status, code, details } = error as { status: number; code: string; details?: unknown };
  if (status === 0) return { kind: 'network' };
  if (status === 429 || code === 'rate_limited') {
    const after = (details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    const seconds = typeof after === 'number' && after > 0 ? after : 60;
    return { kind: 'rateLimited', minutes: Math.max(1, Math.ceil(seconds / 60)) };
  }
  if (code === 'review_closed') return { kind: 'closed' };
  if (code === 'review_full') return { kind: 'full' };
  if (code === 'review_off') return { kind: 'off' };
  if (code === 'reviewer_required') return { kind: 'identity' };
  if (status === 404) return { kind: 'notFound' };
  if (status === 400) return { kind: 'invalid', code };
  return { kind: 'other' };
}

/** What a write gives back to the form that made it: null when it went through. */
export type WriteResult = Promise<ReviewProblem | null>;
