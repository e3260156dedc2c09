/**
 * "Download all" of an end-to-end encrypted transfer: the server cannot read the files, so the
 * browser builds the ZIP from the opened streams (client-zip: stored entries, ZIP64 when
 * needed, streamed with backpressure; docs/decisions/0085). Entry names follow the server's
 * archives (domain/zip-entry-names.ts): the folders kept, unsafe names made safe, duplicates
 * numbered; the archive is named like the server's.
 */
import { makeZip, predictLength } from 'client-zip';
import type { DownloadFile } from '@domain/transfer-api';
import { EntryNamer } from '@domain/zip-entry-names';

export interface ZipEntry {
  readonly file: DownloadFile;
  readonly name: string;
  readonly size: number;
}

/** Each file's entry name, as the server's ZIP names it (its path in the send, else its name). */
export function zipEntries(files: readonly DownloadFile[]): ZipEntry[] {
  const namer = new EntryNamer();
  return files.map((file) => ({
    file,
    name: namer.name(file.itemPath || file.fileName),
    size: file.e2e?.plainSize ?? file.size,
  }));
}

/** The archive's name, as the server's: a lone file's base name, else SendBridge-<transfer>. */
export function zipNameOf(transferId: string, files: readonly DownloadFile[]): string {
  const only = files.length === 1 ? files[0] : undefined;
  const base = only ? (only.fileName.split(/[\\/]/u).pop() ?? '').replace(/\.[^.]*$/u, '') : '';
  return `${base || `SendBridge-${transferId}`}.zip`;
}

/** The archive's exact size. */
export function zipSizeOf(entries: readonly ZipEntry[]): number {
  return Number(predictLength(entries.map((e) => ({ name: e.name, size: e.size }))));
}

/** The archive as a stream; each file is opened only when its turn comes. */
export function zipStream(
  entries: readonly ZipEntry[],
  open: (file: DownloadFile) => Promise<ReadableStream<Uint8Array>>,
  lastModified: Date,
): ReadableStream<Uint8Array> {
  async function* inputs() {
    for (const entry of entries) {
      yield { name: entry.name, size: entry.size, lastModified, input: await open(entry.file) };
    }
  }
  return makeZip(inputs());
}
