/**
 * The PDF of a signed delivery receipt, made in the browser with pdf-lib and loaded only when
 * the sender asks for one (its own chunk). The page states the receipt's facts in English; the
 * signed receipt itself is attached to the PDF as its JSON file, which is what /verify and
 * `sendbridge receipt verify` check: the printed page alone proves nothing.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { receiptFileName, type ReceiptDocument } from '@domain/receipt-format';

const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
const MARGIN = 50;
const SIZE = 10;
const LINE = 14;

/** The standard fonts encode WinAnsi only: other characters (names in any script) become '?'. */
export function printable(text: string): string {
  return text.replace(/[^\u0020-\u007e\u00a0-\u00ff]/gu, '?');
}

/** Words wrapped to the page's width; a word longer than a line (a digest, a path) is cut. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of printable(text).split(' ')) {
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
      if (line) lines.push(line);
      line = '';
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    const next = line ? `${line} ${rest}` : rest;
    if (font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = rest;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The PDF bytes: the facts, each file with its SHA-256, how to check it, and the signed JSON attached. */
export async function receiptPdf(doc: ReceiptDocument, json: string, verifyUrl: string): Promise<Uint8Array> {
  const r = doc.receipt;
  const pdf = await PDFDocument.create();
  pdf.setTitle(`SendBridge delivery receipt ${r.transfer} ${r.delivery}`);
  pdf.setCreator('SendBridge');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const width = PAGE[0] - 2 * MARGIN;
  let page: PDFPage = pdf.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const write = (text: string, f: PDFFont = font, size = SIZE) => {
    for (const line of wrap(text, f, size, width)) {
      if (y < MARGIN + LINE) {
        page = pdf.addPage(PAGE);
        y = PAGE[1] - MARGIN;
      }
      page.drawText(line, { x: MARGIN, y, size, font: f, color: rgb(0.1, 0.1, 0.12) });
      y -= size + 4;
    }
  };
  const gap = () => {
    y -= LINE / 2;
  };

  write('SendBridge delivery receipt', bold, 18);
  gap();
  write(`Transfer: ${r.transfer}`);
  write(`Delivery: ${r.delivery}`);
  write(`Issued by: ${r.issuer}`);
  write(`Download started: ${r.startedAt}`);
  write(`Last byte served: ${r.deliveredAt}`);
  write(`What: ${r.what === 'zip' ? 'the ZIP of all files' : 'one file'}, ${r.bytes} bytes`);
  write(`Served whole: ${r.servedWhole ? 'yes, every byte' : 'no, not every byte'}`);
  write(
    `Recipient: ${
      r.recipient.kind === 'verified'
        ? `${r.recipient.email} (address verified with a mailed code)`
        : r.recipient.kind === 'personal'
          ? `${r.recipient.email}'s personal link (not proof of who held it)`
          : 'anyone with the link'
    }`,
  );
  write(`Country: ${r.country === 'XX' ? 'unknown' : r.country}`);
  gap();
  write(`Files (${r.files.length})`, bold, 12);
  for (const f of r.files) {
    write(`${f.path} - ${f.size} bytes`);
    write(`SHA-256 ${f.sha256 ?? '(not computed yet)'}`, mono, 8);
  }
  gap();
  write('Checking it', bold, 12);
  write(
    `The signed receipt is attached to this PDF as ${receiptFileName(r, 'json')}. Open ${verifyUrl} and choose that file, or run: sendbridge receipt verify ${receiptFileName(r, 'json')}. The printed page itself is not signed.`,
  );
  write(
    `Signing key id: ${JSON.parse(atob(doc.jws.split('.')[0]!.replace(/-/gu, '+').replace(/_/gu, '/'))).kid}`,
    mono,
    8,
  );

  await pdf.attach(new TextEncoder().encode(json), receiptFileName(r, 'json'), {
    mimeType: 'application/json',
    description: 'The signed SendBridge delivery receipt',
  });
  return pdf.save();
}
