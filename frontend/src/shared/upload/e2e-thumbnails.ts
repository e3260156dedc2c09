/**
 * Thumbnails of an end-to-end encrypted send, made by the sender's browser from the plaintext
 * (the server cannot read the files): an image scaled down, the first page of a PDF (pdf.js,
 * loaded only here), a poster frame of a video. Each is WebP at most SENDER_THUMBNAIL_MAX_PX a side,
 * like the server's own, sealed under the file's thumbnail key and stored through the thumbnail
 * routes. Best effort: a file that gives no thumbnail is shown with its icon, never a failed send.
 */
import type { PlannedFile } from '@domain/transfer-api';
import { UPLOAD_TOKEN_HEADER } from '@domain/transfer-headers';
import { apiFetch } from '@/lib/api';

/** The server takes at most 512 KiB of WebP sealed (services/sealed-thumbnails.ts). */
const THUMBNAIL_MAX_BYTES = 512 * 1024;
/** A file whose thumbnail takes longer (a video that never seeks, a huge PDF page) goes without. */
const THUMBNAIL_TIMEOUT_MS = 20_000;
const WEBP_QUALITY = 0.8;
/** Where a poster frame is taken: 1 s in, or 10 % of a shorter video. */
const POSTER_AT_SECONDS = 1;

/**
 * The server's thumbnail size (domain/previews.ts THUMBNAIL_MAX_PX; a unit test holds them equal):
 * not imported, as that module would tie this lazy chunk to the send form's.
 */
export const SENDER_THUMBNAIL_MAX_PX = 400;

const KIND_BY_EXTENSION: Readonly<Record<string, 'image' | 'pdf' | 'video'>> = {
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  webp: 'image',
  avif: 'image',
  bmp: 'image',
  pdf: 'pdf',
  mp4: 'video',
  m4v: 'video',
  mov: 'video',
  webm: 'video',
  ogv: 'video',
};
/** Images over this size get no preview from the server either (spec §5: images up to 100 MB). */
const IMAGE_MAX_BYTES = 100 * 1000 * 1000;

/** The kinds of file the sender makes a thumbnail of: what browsers decode, by type or name. */
export function thumbnailKindOf(file: {
  fileName: string;
  size: number;
  type?: string;
}): 'image' | 'pdf' | 'video' | null {
  const type = file.type ?? '';
  const ext = /\.([a-z0-9]+)$/iu.exec(file.fileName)?.[1]?.toLowerCase() ?? '';
  const kind =
    KIND_BY_EXTENSION[ext] ??
    (/^image\/(jpeg|png|gif|webp|avif|bmp)$/u.test(type)
      ? 'image'
      : type === 'application/pdf'
        ? 'pdf'
        : /^video\/(mp4|webm|quicktime|ogg)$/u.test(type)
          ? 'video'
          : null);
  if (kind === 'image' && file.size > IMAGE_MAX_BYTES) return null;
  return kind;
}

/** The size a picture of `width` x `height` is drawn at: its longest side SENDER_THUMBNAIL_MAX_PX at most. */
export function thumbnailSizeOf(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, SENDER_THUMBNAIL_MAX_PX / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function canvasOf(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

async function webpOf(canvas: HTMLCanvasElement): Promise<Uint8Array> {
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', WEBP_QUALITY));
  if (blob?.type !== 'image/webp') throw new Error('this browser makes no WebP');
  return new Uint8Array(await blob.arrayBuffer());
}

/** Draws `source` (width x height) scaled into a new canvas, as WebP. */
function drawScaled(source: CanvasImageSource, width: number, height: number): Promise<Uint8Array> {
  const size = thumbnailSizeOf(width, height);
  const canvas = canvasOf(size.width, size.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  context.drawImage(source, 0, 0, size.width, size.height);
  return webpOf(canvas);
}

async function imageThumbnail(blob: Blob): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(blob);
  try {
    return await drawScaled(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

async function pdfThumbnail(blob: Blob): Promise<Uint8Array> {
  const [pdfjs, { default: PdfWorker }] = await Promise.all([import('pdfjs-dist'), import('./pdf-worker?worker')]);
  const port = new PdfWorker();
  const worker = pdfjs.PDFWorker.create({ port });
  const task = pdfjs.getDocument({ data: new Uint8Array(await blob.arrayBuffer()), worker });
  try {
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const unit = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: SENDER_THUMBNAIL_MAX_PX / Math.max(unit.width, unit.height) });
    const canvas = canvasOf(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
    await page.render({ canvas, viewport }).promise;
    return await webpOf(canvas);
  } finally {
    await task.destroy();
    worker.destroy();
    port.terminate();
  }
}

function once(target: EventTarget, type: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = () => {
      target.removeEventListener('error', bad);
      resolve();
    };
    const bad = () => {
      target.removeEventListener(type, ok);
      reject(new Error(`media ${type} failed`));
    };
    target.addEventListener(type, ok, { once: true });
    target.addEventListener('error', bad, { once: true });
  });
}

async function videoThumbnail(blob: Blob): Promise<Uint8Array> {
  const url = URL.createObjectURL(blob);
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  video.playsInline = true;
  try {
    const loaded = once(video, 'loadeddata');
    video.src = url;
    await loaded;
    // a recording made in the browser may report no duration until it is read through
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    const at = duration > 0 ? Math.min(POSTER_AT_SECONDS, duration * 0.1) : 0;
    if (at > 0) {
      const seeked = once(video, 'seeked');
      video.currentTime = at;
      await seeked;
    }
    if (!video.videoWidth || !video.videoHeight) throw new Error('the video has no picture');
    return await drawScaled(video, video.videoWidth, video.videoHeight);
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** A WebP thumbnail of the file, or null when its kind has none. */
export async function makeThumbnail(file: { fileName: string; size: number; blob: Blob }): Promise<Uint8Array | null> {
  const kind = thumbnailKindOf({ ...file, type: file.blob.type });
  if (kind === null || file.size === 0) return null;
  if (kind === 'image') return imageThumbnail(file.blob);
  if (kind === 'pdf') return pdfThumbnail(file.blob);
  return videoThumbnail(file.blob);
}

function withTimeout<T>(work: Promise<T>, ms: number, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('thumbnail timed out')), ms);
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    });
  });
}

interface ThumbnailTarget {
  readonly plan: PlannedFile;
  readonly blob: Blob;
}

/** Makes, seals and stores one file's thumbnail; false when it has none or any step failed. */
async function uploadOne(
  transfer: { id: string; uploadToken: string },
  target: ThumbnailTarget,
  key: Uint8Array,
  signal: AbortSignal,
): Promise<boolean> {
  const { plan, blob } = target;
  if (!plan.e2e) return false;
  const image = await withTimeout(
    makeThumbnail({ fileName: plan.fileName, size: plan.e2e.plainSize, blob }),
    THUMBNAIL_TIMEOUT_MS,
    signal,
  );
  if (!image || image.length > THUMBNAIL_MAX_BYTES) return false;
  const { sealThumbnail } = await import('./e2e-seal');
  const sealed = await sealThumbnail(key, plan.e2e.salt, image);
  const headers = { [UPLOAD_TOKEN_HEADER]: transfer.uploadToken };
  const route = `/transfers/${encodeURIComponent(transfer.id)}/files/${encodeURIComponent(plan.fileId)}/thumbnail`;
  const { url } = await apiFetch<{ url: string }>(route, { body: { size: sealed.length }, headers, signal });
  const put = await fetch(url, {
    method: 'PUT',
    body: sealed as BodyInit,
    headers: { 'content-type': 'application/octet-stream' },
    signal,
  });
  if (!put.ok) return false;
  await apiFetch(`${route}/complete`, { method: 'POST', headers, signal });
  return true;
}

/**
 * The sealed thumbnails of every encrypted image, PDF and video of the send, one after another
 * beside the upload. Resolves with how many were stored; never rejects.
 */
export async function uploadSealedThumbnails(
  transfer: { id: string; uploadToken: string },
  files: readonly ThumbnailTarget[],
  key: Uint8Array,
  signal: AbortSignal,
): Promise<number> {
  let stored = 0;
  for (const file of files) {
    if (signal.aborted) break;
    const { plan } = file;
    if (!plan.e2e || !thumbnailKindOf({ fileName: plan.fileName, size: plan.e2e.plainSize, type: file.blob.type }))
      continue;
    try {
      if (await uploadOne(transfer, file, key, signal)) stored += 1;
    } catch {
      // a file without a thumbnail shows its icon on the download page
    }
  }
  return stored;
}
