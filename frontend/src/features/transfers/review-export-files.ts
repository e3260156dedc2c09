/**
 * The review's exports as files the browser saves: the CSV at once, the PDF with pdf-lib loaded
 * only now (its own chunk) and each image's thumbnail turned into JPEG (pdf-lib embeds JPEG and
 * PNG; thumbnails are WebP). A thumbnail that cannot be fetched or decoded is left out.
 */
import { reviewCsv, reviewExportName } from '@domain/review-export';
import type { SenderReviewView } from '@domain/review-api';
import { importWithRetry } from '@/lib/import-with-retry';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { fetchTransferPreviews } from './api/transfers-api';

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  startBrowserDownload(url, fileName);
  // the click has handed the blob to the download by the next task
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function exportReviewCsv(slug: string, view: SenderReviewView): void {
  saveBlob(new Blob([reviewCsv(view)], { type: 'text/csv;charset=utf-8' }), reviewExportName(slug, Date.now(), 'csv'));
}

/** A thumbnail (any format the browser decodes) as JPEG bytes, at most 320 px on its longer side. */
async function jpegOf(url: string): Promise<Uint8Array | null> {
  try {
    // not from the HTTP cache: the modal's <img> may have cached this object without CORS headers
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) return null;
    const bitmap = await createImageBitmap(await response.blob());
    const scale = Math.min(1, 320 / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    return blob ? new Uint8Array(await blob.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

export async function exportReviewPdf(input: {
  readonly slug: string;
  readonly view: SenderReviewView;
  readonly title: string;
  readonly link: string;
}): Promise<void> {
  const [{ reviewPdf }, previews] = await Promise.all([
    importWithRetry(() => import('./review-pdf')),
    // fresh URLs (they lapse); none once the transfer expired: the PDF is made without thumbnails
    fetchTransferPreviews(input.slug).catch(() => null),
  ]);
  const urls = new Map<string, string>();
  for (const f of previews?.files ?? []) if (f.thumbnail?.status === 'ready') urls.set(f.fileId, f.thumbnail.url);
  const thumbnails = new Map<string, Uint8Array>();
  await Promise.all(
    input.view.files.map(async (file) => {
      const url = urls.get(file.versionFileIds.at(-1) ?? file.fileId);
      const bytes = url ? await jpegOf(url) : null;
      if (bytes) thumbnails.set(file.fileId, bytes);
    }),
  );
  const at = Date.now();
  const bytes = await reviewPdf({ view: input.view, title: input.title, link: input.link, at, thumbnails });
  saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), reviewExportName(input.slug, at, 'pdf'));
}
