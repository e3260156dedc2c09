/**
 * The files attached to a PDF (its EmbeddedFiles name tree), read back with pdf-lib: a receipt's
 * PDF carries the signed JSON, which is what a check verifies.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  type PDFHexString,
  PDFName,
  type PDFRawStream,
  type PDFString,
  decodePDFRawStream,
} from 'pdf-lib';

/** The attached files by name, as text. */
export async function attachmentsOf(pdf: Uint8Array): Promise<Map<string, string>> {
  const doc = await PDFDocument.load(pdf);
  const names = doc.catalog.lookup(PDFName.of('Names'), PDFDict);
  const tree = names.lookup(PDFName.of('EmbeddedFiles'), PDFDict).lookup(PDFName.of('Names'), PDFArray);
  const out = new Map<string, string>();
  for (let i = 0; i < tree.size(); i += 2) {
    const name = (tree.lookup(i) as PDFString | PDFHexString).decodeText();
    const spec = tree.lookup(i + 1, PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F')) as PDFRawStream;
    out.set(name, new TextDecoder().decode(decodePDFRawStream(stream).decode()));
  }
  return out;
}
