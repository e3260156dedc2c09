/**
 * CRC-32 of a Blob (a file, or one part of it) for the upload engine: the server joins the
 * parts' into the file's, which "Download all" needs to compose its ZIP inside S3.
 */
import { crc32Portable } from '@domain/crc32';
import { MiB } from '@domain/units';

/** Read at most this much at once: a part may be gigabytes, memory stays at one chunk. */
export const CRC_CHUNK_BYTES = 8 * MiB;

/** Lets the page paint and handle input between chunks (a task, not a microtask). */
const yieldToUi = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The blob's CRC-32 (unsigned), read chunk by chunk; rejects with the signal's reason once it aborts. */
export async function crc32OfBlob(
  blob: Blob,
  signal?: AbortSignal,
  chunkBytes = CRC_CHUNK_BYTES,
  crc32: (bytes: Uint8Array, previous: number) => number = crc32Portable,
): Promise<number> {
  let crc = 0;
  for (let at = 0; at < blob.size; at += chunkBytes) {
    if (at > 0) await yieldToUi();
    signal?.throwIfAborted();
    const bytes = new Uint8Array(await blob.slice(at, Math.min(blob.size, at + chunkBytes)).arrayBuffer());
    crc = crc32(bytes, crc);
  }
  return crc;
}

/** The CRC-32 of bytes already read (a part read once for its PUT), in chunks between which the page may paint. */
export async function crc32OfBytes(
  bytes: Uint8Array,
  signal?: AbortSignal,
  chunkBytes = CRC_CHUNK_BYTES,
  crc32: (bytes: Uint8Array, previous: number) => number = crc32Portable,
): Promise<number> {
  let crc = 0;
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    if (at > 0) await yieldToUi();
    signal?.throwIfAborted();
    crc = crc32(bytes.subarray(at, Math.min(bytes.length, at + chunkBytes)), crc);
  }
  return crc;
}
