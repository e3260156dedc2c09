/**
 * The review's PDF summary, made in the browser with pdf-lib and loaded only when the sender
 * exports one (its own chunk, like the receipt's). A first page with the decisions on the whole
 * transfer and the counts, then each file with its thumbnail (pins drawn on it), its reviewers'
 * decisions and its threads. English, as the CSV is: it is a record to share, not a screen.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { anchorText, authorText, groupByFile, transferDecisions } from '@domain/review-export';
import type { ReviewDecision } from '@domain/review';
import type { SenderReviewView } from '@domain/review-api';
import { wrap } from './receipt-pdf';

const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
const MARGIN = 50;
const SIZE = 10;
const THUMB = 140;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);

export interface ReviewPdfInput {
  readonly view: Pick<SenderReviewView, 'files' | 'comments' | 'decisions' | 'favourites' | 'settings' | 'summary'>;
  /** what the transfer is called on screen (its first file and "+n files") */
  readonly title: string;
  readonly link: string;
  /** epoch ms the export was made */
  readonly at: number;
  /** JPEG bytes of a file's thumbnail, by file id (files without one are listed without) */
  readonly thumbnails: ReadonlyMap<string, Uint8Array>;
}

const DECISION = { approved: 'approved', changes_requested: 'asked for changes' } as const;
const day = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

/** The PDF's bytes: a summary page, then a page (or more) per file with its thumbnail. */
export async function reviewPdf(input: ReviewPdfInput): Promise<Uint8Array> {
  const { view } = input;
  const pdf = await PDFDocument.create();
  pdf.setTitle(`SendBridge review: ${input.title}`);
  pdf.setCreator('SendBridge');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE[0] - 2 * MARGIN;
  let page: PDFPage = pdf.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const newPage = () => {
    page = pdf.addPage(PAGE);
    y = PAGE[1] - MARGIN;
  };
  const write = (text: string, options: { font?: PDFFont; size?: number; indent?: number; muted?: boolean } = {}) => {
    const f = options.font ?? font;
    const size = options.size ?? SIZE;
    const indent = options.indent ?? 0;
    for (const paragraph of text.split(/\r\n|\r|\n/u)) {
      for (const line of wrap(paragraph, f, size, width - indent)) {
        if (y < MARGIN + size) newPage();
        page.drawText(line, { x: MARGIN + indent, y, size, font: f, color: options.muted ? MUTED : INK });
        y -= size + 4;
      }
    }
  };
  const gap = (points = 7) => {
    y -= points;
  };
  const decisionLine = (d: ReviewDecision) =>
    `${authorText(d.author)} ${DECISION[d.decision]}${d.version > 0 ? ` (version ${d.version})` : ''} on ${day(d.at)}${d.note ? `: ${d.note}` : ''}`;

  write('SendBridge review summary', { font: bold, size: 18 });
  gap();
  write(`Transfer: ${input.title}`);
  write(`Link: ${input.link}`);
  write(`Exported: ${day(input.at)} UTC`);
  write(`Review: ${view.settings.closedAt === undefined ? 'open' : `closed on ${day(view.settings.closedAt)}`}`);
  const threads = view.comments.filter((c) => c.parentId === undefined);
  write(
    `${threads.length} threads (${threads.filter((c) => c.resolvedAt !== undefined).length} resolved), ${view.comments.length} comments, ${view.summary.approved} approved, ${view.summary.changesRequested} with changes asked`,
  );
  gap();
  write('Whole transfer', { font: bold, size: 12 });
  const overall = transferDecisions(view.decisions);
  if (overall.length === 0) write('No decision yet.', { muted: true });
  for (const d of overall) write(decisionLine(d));

  for (const group of groupByFile(view)) {
    newPage();
    write(group.file.fileName, { font: bold, size: 14 });
    write(
      `Version ${group.file.version}${group.favourites.length > 0 ? ` - favourite of ${group.favourites.join(', ')}` : ''}`,
      { muted: true },
    );
    gap();
    const bytes = input.thumbnails.get(group.file.fileId);
    if (bytes) {
      const image = await pdf.embedJpg(bytes);
      drawThumbnail(page, image, MARGIN, y, group.threads, bold);
      y -= THUMB + 12;
    }
    write('Decisions', { font: bold, size: 12 });
    if (group.decisions.length === 0) write('No decision yet.', { muted: true });
    for (const d of group.decisions) write(decisionLine(d));
    gap();
    write('Comments', { font: bold, size: 12 });
    if (group.threads.length === 0) write('No comments.', { muted: true });
    for (const thread of group.threads) {
      const { root } = thread;
      const anchor = anchorText(root.anchor, thread.pin);
      const state = root.resolvedAt === undefined ? 'open' : 'resolved';
      gap(4);
      write(`${anchor ? `[${anchor}] ` : ''}${authorText(root.author)}, ${day(root.createdAt)} (${state})`, {
        font: bold,
      });
      write(root.body, { indent: 10 });
      for (const reply of thread.replies) {
        write(`${authorText(reply.author)}, ${day(reply.createdAt)}`, { font: bold, indent: 20 });
        write(reply.body, { indent: 30 });
      }
    }
  }
  return pdf.save();
}

/** The thumbnail scaled into a THUMB square, top-left at (x, top), with numbered pins. */
function drawThumbnail(
  page: PDFPage,
  image: PDFImage,
  x: number,
  top: number,
  threads: ReturnType<typeof groupByFile>[number]['threads'],
  bold: PDFFont,
): void {
  const scale = Math.min(THUMB / image.width, THUMB / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  page.drawImage(image, { x, y: top - h, width: w, height: h });
  for (const thread of threads) {
    const anchor = thread.root.anchor;
    if (anchor?.kind !== 'point' || thread.pin === undefined) continue;
    const cx = x + anchor.x * w;
    const cy = top - anchor.y * h;
    page.drawCircle({ x: cx, y: cy, size: 7, color: rgb(0.85, 0.2, 0.25), borderColor: rgb(1, 1, 1), borderWidth: 1 });
    const label = String(thread.pin);
    page.drawText(label, {
      x: cx - bold.widthOfTextAtSize(label, 8) / 2,
      y: cy - 3,
      size: 8,
      font: bold,
      color: rgb(1, 1, 1),
    });
  }
}
