/**
 * Streams a ZIP archive (STORED, ZIP64 when needed) from a list of sources, one source at a
 * time, as an async generator: the consumer pulls, so a slow consumer pauses the sources
 * (backpressure) and memory stays at one chunk. File data is passed through uncopied.
 */
import { EntryNamer, ZipWriter, zipSize } from './zip-format';

export interface ZipInput {
  /** user's file name or relative path; sanitised and made unique in the plan */
  readonly name: string;
  readonly size: number;
  /** modification time, ms since the epoch; defaults to the plan's time */
  readonly mtime?: number;
}

export type PlannedEntry<T extends ZipInput> = T & { readonly entryName: string; readonly mtimeMs: number };

export interface ZipPlan<T extends ZipInput> {
  readonly entries: readonly PlannedEntry<T>[];
  /** exact archive size in bytes */
  readonly size: number;
  readonly forceZip64: boolean;
}

export interface ZipPlanOptions {
  /** ZIP64 records for every entry and the end, even for small archives (tests, old readers' checks) */
  readonly forceZip64?: boolean;
  /** mtime of entries without one (ms); defaults to now */
  readonly now?: number;
}

/** Final entry names and the exact archive size, before reading any source. */
export function planZip<T extends ZipInput>(inputs: readonly T[], opts: ZipPlanOptions = {}): ZipPlan<T> {
  const namer = new EntryNamer();
  const now = opts.now ?? Date.now();
  const entries = inputs.map((input) => {
    if (!Number.isSafeInteger(input.size) || input.size < 0)
      throw new RangeError(`invalid size ${input.size} for "${input.name}"`);
    return { ...input, entryName: namer.name(input.name), mtimeMs: input.mtime ?? now };
  });
  const size = zipSize(
    entries.map((e) => ({ nameBytes: Buffer.from(e.entryName, 'utf8'), size: e.size })),
    { forceZip64: opts.forceZip64 },
  );
  return { entries, size, forceZip64: Boolean(opts.forceZip64) };
}

export type OpenSource<T extends ZipInput> = (
  entry: PlannedEntry<T>,
) => AsyncIterable<Uint8Array> | Promise<AsyncIterable<Uint8Array>>;

/**
 * The archive's bytes for a plan. `open` is called for each entry in order, only when the
 * previous entry is done. Throws ZipSizeError as soon as a source turns out longer or shorter
 * than its declared size, and stops reading it (its iterator is returned/destroyed).
 */
export async function* zipStream<T extends ZipInput>(
  plan: ZipPlan<T>,
  open: OpenSource<T>,
  opts: { signal?: AbortSignal } = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const writer = new ZipWriter({ forceZip64: plan.forceZip64 });
  for (const entry of plan.entries) {
    opts.signal?.throwIfAborted();
    yield writer.begin({ name: entry.entryName, size: entry.size, mtimeMs: entry.mtimeMs });
    const source = await open(entry);
    for await (const chunk of source) {
      if (!chunk.length) continue;
      writer.update(chunk);
      yield chunk;
    }
    yield writer.end();
  }
  opts.signal?.throwIfAborted();
  yield writer.finish();
  if (writer.offset !== plan.size) throw new Error(`zip size ${writer.offset} differs from the planned ${plan.size}`);
}
