import { describe, expect, it } from 'vitest';
import { VISITOR_ID_PATTERN, formatTimecode, type ReviewComment, type ReviewDecision } from '@domain/review';
import { anchorSchema } from '@domain/review-api';
import {
  decisionOn,
  movePoint,
  pageOf,
  pinNumbers,
  pointFromClick,
  pointPercent,
  problemOf,
  threadsOf,
  timeAnchor,
  visitorIdFrom,
} from '@/features/downloads/review/review-logic';
import { ApiError } from '@/lib/api';

const box = { left: 100, top: 50, width: 400, height: 200 };

describe('pointFromClick', () => {
  it('gives the click as fractions of the image, from its top left corner', () => {
    expect(pointFromClick(box, 100, 50)).toEqual({ x: 0, y: 0 });
    expect(pointFromClick(box, 300, 150)).toEqual({ x: 0.5, y: 0.5 });
    expect(pointFromClick(box, 500, 250)).toEqual({ x: 1, y: 1 });
    expect(pointFromClick(box, 160, 100)).toEqual({ x: 0.15, y: 0.25 });
  });

  it('keeps a click on the edge (or just past it) inside the image', () => {
    expect(pointFromClick(box, 90, 260)).toEqual({ x: 0, y: 1 });
    expect(pointFromClick(box, 501, 49)).toEqual({ x: 1, y: 0 });
  });

  it('rounds to 4 decimals and takes the middle of an image with no size yet', () => {
    expect(pointFromClick({ left: 0, top: 0, width: 3, height: 3 }, 1, 2)).toEqual({ x: 0.3333, y: 0.6667 });
    expect(pointFromClick({ left: 0, top: 0, width: 0, height: 0 }, 5, 5)).toEqual({ x: 0.5, y: 0.5 });
  });

  it('always makes an anchor the API accepts', () => {
    for (const [x, y] of [
      [-1e9, 1e9],
      [300.123456, 149.987654],
      [Number.NaN, 0],
    ] as const) {
      const p = pointFromClick(box, x, y);
      expect(anchorSchema.safeParse({ kind: 'point', ...p }).success).toBe(true);
    }
  });
});

describe('movePoint', () => {
  const middle = { x: 0.5, y: 0.5 };
  it('moves 2 % per arrow key and 10 % with Shift', () => {
    expect(movePoint(middle, 'ArrowRight', false)).toEqual({ x: 0.52, y: 0.5 });
    expect(movePoint(middle, 'ArrowLeft', false)).toEqual({ x: 0.48, y: 0.5 });
    expect(movePoint(middle, 'ArrowUp', true)).toEqual({ x: 0.5, y: 0.4 });
    expect(movePoint(middle, 'ArrowDown', true)).toEqual({ x: 0.5, y: 0.6 });
  });

  it('stops at the edges', () => {
    expect(movePoint({ x: 0.95, y: 0.03 }, 'ArrowRight', true)).toEqual({ x: 1, y: 0.03 });
    expect(movePoint({ x: 0.95, y: 0.01 }, 'ArrowUp', false)).toEqual({ x: 0.95, y: 0 });
  });

  it('ignores other keys', () => {
    expect(movePoint(middle, 'Enter', false)).toBeNull();
    expect(movePoint(middle, 'a', true)).toBeNull();
  });

  it('says where the pin is in whole percents', () => {
    expect(pointPercent({ x: 0.4049, y: 0.255 })).toEqual({ x: 40, y: 26 });
  });
});

describe('time and page anchors', () => {
  it("takes the player's time with at most 3 decimals, never below 0", () => {
    expect(timeAnchor(5.123456)).toEqual({ kind: 'time', seconds: 5.123 });
    expect(timeAnchor(-2)).toEqual({ kind: 'time', seconds: 0 });
    expect(timeAnchor(Number.NaN)).toEqual({ kind: 'time', seconds: 0 });
    const at = timeAnchor(5.9);
    expect(at.kind === 'time' ? formatTimecode(at.seconds) : '').toBe('0:05');
    expect(formatTimecode(3723.5)).toBe('1:02:03');
  });

  it('reads a typed page number from 1 to 100,000', () => {
    expect(pageOf(' 3 ')).toBe(3);
    expect(pageOf('100000')).toBe(100_000);
    for (const bad of ['0', '', '-1', '2.5', '1e3', 'two', '100001']) expect(pageOf(bad), bad).toBeNull();
  });
});

const comment = (over: Partial<ReviewComment> & Pick<ReviewComment, 'commentId' | 'createdAt'>): ReviewComment => ({
  fileId: 'file-a',
  version: 1,
  author: { kind: 'visitor', name: 'Ana' },
  body: 'text',
  ...over,
});

describe('threadsOf and pinNumbers', () => {
  const comments = [
    comment({ commentId: 'c3', createdAt: 30, anchor: { kind: 'point', x: 0.1, y: 0.2 } }),
    comment({ commentId: 'r2', createdAt: 50, parentId: 'c1' }),
    comment({ commentId: 'c1', createdAt: 10, anchor: { kind: 'point', x: 0.5, y: 0.5 } }),
    comment({ commentId: 'c2', createdAt: 20 }),
    comment({ commentId: 'r1', createdAt: 40, parentId: 'c1' }),
    comment({ commentId: 'orphan', createdAt: 60, parentId: 'gone' }),
    comment({ commentId: 'other', createdAt: 5, fileId: 'file-b' }),
  ];

  it("groups one file's comments into threads, oldest first, replies under their thread", () => {
    const threads = threadsOf(comments, 'file-a');
    expect(threads.map((t) => [t.root.commentId, t.replies.map((r) => r.commentId)])).toEqual([
      ['c1', ['r1', 'r2']],
      ['c2', []],
      ['c3', []],
    ]);
    expect(threadsOf(comments, 'file-b').map((t) => t.root.commentId)).toEqual(['other']);
  });

  it('numbers only the pinned threads, in the threads’ order', () => {
    const numbers = pinNumbers(threadsOf(comments, 'file-a'));
    expect([...numbers]).toEqual([
      ['c1', 1],
      ['c3', 2],
    ]);
  });
});

describe('decisionOn', () => {
  const d = (subject: string, decision: ReviewDecision['decision'], at: number): ReviewDecision => ({
    subject,
    reviewer: 'visitor:abc',
    author: { kind: 'visitor', name: 'Ana' },
    decision,
    version: 1,
    at,
  });
  it('takes the latest decision on the subject', () => {
    const all = [d('f', 'approved', 1), d('transfer', 'approved', 5), d('f', 'changes_requested', 3)];
    expect(decisionOn(all, 'f')?.decision).toBe('changes_requested');
    expect(decisionOn(all, 'transfer')?.at).toBe(5);
    expect(decisionOn(all, 'g')).toBeUndefined();
  });
});

describe('visitorIdFrom', () => {
  it('writes 16 bytes as the 22 base64url characters the API takes', () => {
    const id = visitorIdFrom(new Uint8Array(16).fill(0xff));
    expect(id).toBe('_____________________w');
    expect(VISITOR_ID_PATTERN.test(id)).toBe(true);
    expect(VISITOR_ID_PATTERN.test(visitorIdFrom(Uint8Array.from({ length: 16 }, (_, i) => i * 17)))).toBe(true);
  });

  it('refuses fewer or more bytes', () => {
    expect(() => visitorIdFrom(new Uint8Array(15))).toThrow();
  });
});

describe('problemOf', () => {
  it('tells the refusals the screen shows apart', () => {
    expect(problemOf(new ApiError(429, 'rate_limited', 'x', { retryAfterSeconds: 130 }))).toEqual({
      kind: 'rateLimited',
      minutes: 3,
    });
    expect(problemOf(new ApiError(429, 'rate_limited', 'x'))).toEqual({ kind: 'rateLimited', minutes: 1 });
    expect(problemOf(new ApiError(409, 'review_closed', 'x'))).toEqual({ kind: 'closed' });
    expect(problemOf(new ApiError(409, 'review_full', 'x'))).toEqual({ kind: 'full' });
    expect(problemOf(new ApiError(409, 'review_off', 'x'))).toEqual({ kind: 'off' });
    expect(problemOf(new ApiError(401, 'reviewer_required', 'x'))).toEqual({ kind: 'identity' });
    expect(problemOf(new ApiError(404, 'not_found', 'x'))).toEqual({ kind: 'notFound' });
    expect(problemOf(new ApiError(400, 'invalid_anchor', 'x'))).toEqual({ kind: 'invalid', code: 'invalid_anchor' });
    expect(problemOf(new ApiError(0, 'network', 'x'))).toEqual({ kind: 'network' });
    expect(problemOf(new Error('boom'))).toEqual({ kind: 'other' });
  });
});
