import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ReviewComment } from '@domain/review';
import type { SenderReviewView } from '@domain/review-api';
import { reviewPdf } from '@/features/transfers/review-pdf';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const anna = { kind: 'verified', email: 'anna@example.com' } as const;

function view(comments: ReviewComment[]): SenderReviewView {
  return {
    settings: { enabled: true, writable: true },
    files: [
      { fileId: 'f1', fileName: 'photo.jpg', previewKind: 'image', version: 1, versionFileIds: ['f1'] },
      { fileId: 'f2', fileName: 'deck.pdf', previewKind: 'pdf', version: 2, versionFileIds: ['f0', 'f2'] },
    ],
    comments,
    decisions: [
      {
        subject: 'transfer',
        reviewer: 'email:anna@example.com',
        author: anna,
        decision: 'approved',
        version: 0,
        at: T0,
      },
    ],
    favourites: { f1: ['anna@example.com'] },
    readAt: 0,
    summary: { approved: 1, changesRequested: 0, unread: 0, transferApproved: true, closed: false },
  };
}

describe('the review PDF', () => {
  it('parses back with a summary page and one page per file, titled after the transfer', async () => {
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#48a' } })
      .jpeg()
      .toBuffer();
    const comments: ReviewComment[] = [
      {
        commentId: 'c1',
        fileId: 'f1',
        version: 1,
        author: anna,
        body: 'Crop tighter\non the left',
        anchor: { kind: 'point', x: 0.25, y: 0.5 },
        createdAt: T0,
      },
      {
        commentId: 'c2',
        fileId: 'f1',
        version: 1,
        parentId: 'c1',
        author: { kind: 'sender' },
        body: 'Done',
        createdAt: T0 + 1,
      },
      {
        commentId: 'c3',
        fileId: 'f2',
        version: 2,
        author: { kind: 'visitor', name: 'Bøb 李' },
        body: 'Typo',
        anchor: { kind: 'page', page: 2 },
        createdAt: T0 + 2,
      },
    ];
    const bytes = await reviewPdf({
      view: view(comments),
      title: 'photo.jpg +1 file',
      link: 'https://sendbridge.example/d/abc',
      at: T0,
      thumbnails: new Map([['f1', new Uint8Array(jpeg)]]),
    });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(3);
    expect(doc.getTitle()).toBe('SendBridge review: photo.jpg +1 file');
    // the thumbnail is in the file's page, the other file's page has no image
    const images = (i: number) =>
      doc.getPage(i).node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.keys().length ?? 0;
    expect([images(0), images(1), images(2)]).toEqual([0, 1, 0]);
  });

  it('lays a long thread over more pages', async () => {
    const many: ReviewComment[] = Array.from({ length: 120 }, (_, i) => ({
      commentId: `c${i}`,
      fileId: 'f1',
      version: 1,
      author: anna,
      body: `Note ${i}: ${'word '.repeat(40)}`,
      createdAt: T0 + i,
    }));
    const doc = await PDFDocument.load(
      await reviewPdf({ view: view(many), title: 't', link: 'l', at: T0, thumbnails: new Map() }),
    );
    expect(doc.getPageCount()).toBeGreaterThan(3);
  });
});
