import { describe, expect, it } from 'vitest';
import { parseCsv } from '@domain/csv';
import type { ReviewComment, ReviewDecision } from '@domain/review';
import type { ReviewFileView } from '@domain/review-api';
import {
  anchorText,
  authorText,
  groupByFile,
  isUnread,
  reviewCsv,
  reviewExportName,
  threadsOf,
} from '@domain/review-export';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const file = (fileId: string, fileName: string, previewKind = 'image'): ReviewFileView => ({
  fileId,
  fileName,
  previewKind,
  version: 1,
  versionFileIds: [fileId],
});
const files = [file('f-photo', 'photo.jpg'), file('f-cut', 'cut, final.mp4', 'video')];
const anna = { kind: 'verified', email: 'anna@example.com' } as const;
const bob = { kind: 'visitor', name: 'Bob' } as const;

let n = 0;
const comment = (over: Partial<ReviewComment> & Pick<ReviewComment, 'fileId' | 'body'>): ReviewComment => {
  n += 1;
  return { commentId: `c${n}`, version: 1, author: anna, createdAt: T0 + n * 60_000, ...over };
};

describe('threads of a file', () => {
  it('puts replies under their thread, oldest first, and numbers pins per file in placing order', () => {
    const first = comment({ fileId: 'f-photo', body: 'Crop left', anchor: { kind: 'point', x: 0.2, y: 0.3 } });
    const second = comment({ fileId: 'f-photo', body: 'General note' });
    const third = comment({ fileId: 'f-photo', body: 'Sky too blue', anchor: { kind: 'point', x: 0.8, y: 0.1 } });
    const late = comment({ fileId: 'f-photo', parentId: first.commentId, body: 'Done', author: { kind: 'sender' } });
    const early = { ...comment({ fileId: 'f-photo', parentId: first.commentId, body: 'Agreed' }), createdAt: T0 };
    const threads = threadsOf([late, third, first, second, early]);
    expect(threads.map((t) => [t.root.body, t.pin, t.replies.map((r) => r.body)])).toEqual([
      ['Crop left', 1, ['Agreed', 'Done']],
      ['General note', undefined, []],
      ['Sky too blue', 2, []],
    ]);
  });

  it('groups by the review files, keeping each file its decisions and favourites', () => {
    const c = comment({ fileId: 'f-cut', body: 'Cut here', anchor: { kind: 'time', seconds: 5 } });
    const d: ReviewDecision = {
      subject: 'f-cut',
      reviewer: 'email:anna@example.com',
      author: anna,
      decision: 'approved',
      version: 1,
      at: T0,
    };
    const groups = groupByFile({ files, comments: [c], decisions: [d], favourites: { 'f-cut': ['anna@example.com'] } });
    expect(groups.map((g) => [g.file.fileName, g.threads.length, g.decisions.length, g.favourites])).toEqual([
      ['photo.jpg', 0, 0, []],
      ['cut, final.mp4', 1, 1, ['anna@example.com']],
    ]);
  });
});

describe('labels', () => {
  it('names anchors as the review shows them', () => {
    expect(anchorText({ kind: 'time', seconds: 5.4 })).toBe('at 0:05');
    expect(anchorText({ kind: 'time', seconds: 3723 })).toBe('at 1:02:03');
    expect(anchorText({ kind: 'page', page: 2 })).toBe('page 2');
    expect(anchorText({ kind: 'point', x: 0.1, y: 0.1 }, 3)).toBe('pin 3');
    expect(anchorText(undefined)).toBe('');
  });

  it('marks a typed name as unverified', () => {
    expect(authorText(anna)).toBe('anna@example.com');
    expect(authorText(bob)).toBe('Bob (unverified)');
    expect(authorText({ kind: 'sender' })).toBe('Sender');
  });

  it('counts only recipients’ comments after the last read as unread', () => {
    const c = comment({ fileId: 'f-photo', body: 'x' });
    expect(isUnread(c, c.createdAt - 1)).toBe(true);
    expect(isUnread(c, c.createdAt)).toBe(false);
    expect(isUnread({ ...c, author: { kind: 'sender' } }, 0)).toBe(false);
  });
});

describe('CSV export', () => {
  it('writes every comment, reply and decision with quoting and the formula guard', () => {
    const root = comment({
      fileId: 'f-photo',
      body: '=HYPERLINK("http://evil")',
      anchor: { kind: 'point', x: 0.5, y: 0.5 },
      author: bob,
      createdAt: T0,
      resolvedAt: T0 + 3_600_000,
    });
    const reply = comment({
      fileId: 'f-photo',
      parentId: root.commentId,
      body: 'Fixed, see "v2"\nthanks',
      author: { kind: 'sender' },
      createdAt: T0 + 60_000,
    });
    const timed = comment({
      fileId: 'f-cut',
      body: 'Jump cut',
      anchor: { kind: 'time', seconds: 65 },
      version: 2,
      createdAt: T0 + 120_000,
    });
    const decisions: ReviewDecision[] = [
      {
        subject: 'transfer',
        reviewer: 'email:anna@example.com',
        author: anna,
        decision: 'approved',
        version: 0,
        at: T0 + 300_000,
      },
      {
        subject: 'f-cut',
        reviewer: 'visitor:AAAAAAAAAAAAAAAAAAAAAA',
        author: bob,
        decision: 'changes_requested',
        version: 2,
        note: '+1 more take',
        at: T0 + 240_000,
      },
    ];
    const csv = reviewCsv({ files, comments: [timed, reply, root], decisions, favourites: {} });
    expect(csv).toBe(
      [
        '\uFEFFType,File,Version,Anchor,Author,Verified,Text,Date,Resolved',
        `comment,photo.jpg,1,pin 1,Bob (unverified),no,"'=HYPERLINK(""http://evil"")",2026-11-28T09:00:00.000Z,yes (2026-11-28T10:00:00.000Z)`,
        'reply,photo.jpg,1,pin 1,Sender,yes,"Fixed, see ""v2""\nthanks",2026-11-28T09:01:00.000Z,',
        'comment,"cut, final.mp4",2,at 1:05,anna@example.com,yes,Jump cut,2026-11-28T09:02:00.000Z,no',
        'decision,"cut, final.mp4",2,,Bob (unverified),no,Changes requested: +1 more take,2026-11-28T09:04:00.000Z,',
        'decision,(whole transfer),,,anna@example.com,yes,Approved,2026-11-28T09:05:00.000Z,',
        '',
      ].join('\r\n'),
    );
    // and a CSV reader gets the texts back (the guard's apostrophe aside)
    const parsed = parseCsv(csv).rows;
    expect(parsed[2]?.[6]).toBe('Fixed, see "v2"\nthanks');
    expect(parsed[1]?.[6]).toBe('\'=HYPERLINK("http://evil")');
  });

  it('an empty review is its header alone', () => {
    expect(reviewCsv({ files, comments: [], decisions: [], favourites: {} })).toBe(
      '\uFEFFType,File,Version,Anchor,Author,Verified,Text,Date,Resolved\r\n',
    );
  });

  it('names the file by transfer and UTC day', () => {
    expect(reviewExportName('aB3-x_9/..', T0, 'csv')).toBe('review-aB3-x_9-2026-11-28.csv');
    expect(reviewExportName('abc', T0, 'pdf')).toBe('review-abc-2026-11-28.pdf');
  });
});
