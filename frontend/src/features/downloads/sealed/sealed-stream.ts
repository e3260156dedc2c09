/**
 * Reading a sealed object from storage and opening it as it arrives (docs/e2e-format.md): the
 * presigned URL is the plain download's own (the same call, so counting, limits and delivery
 * reports hold), the bytes pass through the format's opening stream, and a changed, cut or
 * overlong object errors the stream with E2eTamperError before its end is reached.
 */
import { E2eTamperError, fileKeyOf, openingStream, plainSizeOf } from '@domain/e2e-format';

/** The storage answered something other than the object (a lapsed URL, a limit reached). */
export class SealedFetchError extends Error {
  constructor(readonly status: number) {
    super(`storage answered ${status}`);
    this.name = 'SealedFetchError';
  }
}

export interface SealedSource {
  /** base64url file salt */
  readonly salt: string;
  readonly plainSize: number;
}

/** The plaintext of the sealed object at `url`, opened while it streams in. */
export async function openedStream(
  url: string,
  transferKey: Uint8Array,
  source: SealedSource,
  purpose: 'file' | 'thumbnail',
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const key = await fileKeyOf(transferKey, source.salt, purpose);
  // no credentials and no referrer: a presigned URL carries its own authority
  const res = await fetch(url, { signal, credentials: 'omit', referrerPolicy: 'no-referrer' });
  if (!res.ok || !res.body) throw new SealedFetchError(res.status);
  return res.body.pipeThrough(openingStream(key, source.plainSize));
}

/** A whole (small) sealed object opened into a typed Blob: a thumbnail, a preview under its limit. */
export async function openedBlob(
  url: string,
  transferKey: Uint8Array,
  source: SealedSource,
  purpose: 'file' | 'thumbnail',
  type: string,
  signal?: AbortSignal,
): Promise<Blob> {
  const stream = await openedStream(url, transferKey, source, purpose, signal);
  return collectBlob(stream, type);
}

/**
 * The stream's bytes as one Blob. Read by hand: `new Response(stream).blob()` would turn a
 * tamper error into a bare TypeError, and the page must tell a changed file from a network error.
 */
export async function collectBlob(stream: ReadableStream<Uint8Array>, type: string): Promise<Blob> {
  const parts: BlobPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value as Uint8Array<ArrayBuffer>);
  }
  return new Blob(parts, { type });
}

export function isTamper(error: unknown): boolean {
  return error instanceof E2eTamperError || (error instanceof Error && error.name === 'E2eTamperError');
}

/**
 * A sealed thumbnail opened into a WebP Blob. Its plaintext size is not stored: the sealed
 * size gives it (docs/e2e-format.md), and a size no plaintext has is a changed object.
 */
export async function openedThumbnail(
  url: string,
  transferKey: Uint8Array,
  salt: string,
  signal?: AbortSignal,
): Promise<Blob> {
  const res = await fetch(url, { signal, credentials: 'omit', referrerPolicy: 'no-referrer' });
  if (!res.ok) throw new SealedFetchError(res.status);
  const sealed = new Uint8Array(await res.arrayBuffer());
  let plainSize: number;
  try {
    plainSize = plainSizeOf(sealed.length);
  } catch {
    throw new E2eTamperError(0);
  }
  const key = await fileKeyOf(transferKey, salt, 'thumbnail');
  const stream = new Blob([sealed]).stream().pipeThrough(openingStream(key, plainSize));
  return collectBlob(stream, 'image/webp');
}
