/**
 * The archive composed inside S3 (adapters/zip/zip-compose.ts), planned at the sizes the plans
 * sell: every part within S3's limits, at most 10,000 parts, the assembled parts' memory
 * bounded, and each invocation's work within its time at stated S3 rates. With small limits,
 * the composed bytes equal the streamed archive's (zip-stream.ts), which the integration tests
 * check with unzip, 7z and Python.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type ComposeEntry,
  type ComposeOptions,
  type ComposePlan,
  type ComposeRates,
  framingBytes,
  invocationsOf,
  planComposedZip,
} from '../../../functions/adapters/zip/zip-compose';
import { crc32, zipSize } from '../../../functions/adapters/zip/zip-format';
import { planZip, zipStream } from '../../../functions/adapters/zip/zip-stream';
import { PLANS } from '../../../functions/domain/plans';
import { S3_MAX_PART_BYTES, S3_MAX_PARTS, S3_MIN_PART_BYTES } from '../../../functions/domain/upload';
import { GiB, KiB, MiB, TB } from '../../../functions/domain/units';

/** The largest transfer any plan sells, and the most files. */
const MAX_TRANSFER_BYTES = Math.max(...Object.values(PLANS).map((p) => p.uploadLimit ?? 0));
const MAX_FILES = Math.max(...Object.values(PLANS).map((p) => p.files));

/**
 * Rates the plan is held to: one UploadPartCopy request copying 50 MiB/s inside S3 (AWS
 * publishes no figure; large same-region copies are commonly seen well above it), an assembled
 * part read and uploaded through the builder at 40 MiB/s (the streaming builder measured
 * 46-51 MiB/s here), 8 requests in flight, 0.2 s latency per request.
 */
const RATES: ComposeRates = {
  copyBytesPerSecond: 50 * MiB,
  throughBytesPerSecond: 40 * MiB,
  concurrency: 8,
  requestSeconds: 0.2,
};
/** Of Lambda's 900 s, what one invocation plans to use (the rest covers slow requests and the hand-over). */
const INVOCATION_BUDGET_S = 600;
const UPLOAD_PART_BYTES = 16 * MiB;
const NAME_BYTES = 60;

const sized = (sizes: readonly number[]): ComposeEntry[] => sizes.map((size) => ({ nameBytes: NAME_BYTES, size }));

/** Sizes that add up to `total` over `count` files, spread as even as integers allow. */
function evenSizes(total: number, count: number): number[] {
  return Array.from(
    { length: count },
    (_, i) => Math.floor((total * (i + 1)) / count) - Math.floor((total * i) / count),
  );
}

/** Everything a plan must hold, whatever the entries. */
function checkPlan(entries: readonly ComposeEntry[], plan: ComposePlan): void {
  expect(plan.parts.length).toBeLessThanOrEqual(S3_MAX_PARTS);
  const wrong: string[] = [];
  plan.parts.forEach((p, i) => {
    if (p.number !== i + 1) wrong.push(`part ${i + 1} numbered ${p.number}`);
    const last = i === plan.parts.length - 1;
    if (p.size > S3_MAX_PART_BYTES || p.size <= 0) wrong.push(`part ${p.number}: ${p.size} B`);
    if (!last && p.size < S3_MIN_PART_BYTES) wrong.push(`part ${p.number}: ${p.size} B under 5 MiB`);
    if (p.kind === 'upload' && p.size !== p.pieces.reduce((n, x) => n + ('bytes' in x ? x.bytes : x.end - x.start), 0))
      wrong.push(`part ${p.number}: pieces do not add up`);
  });
  expect(wrong.slice(0, 5)).toEqual([]);
  // The archive in order: each entry's header, its bytes from 0 to its size exactly once, its descriptor; then the directory.
  type Step = { kind: string; entry?: number; start?: number; end?: number };
  const flat = plan.parts.flatMap((p): Step[] => (p.kind === 'copy' ? [p] : [...p.pieces]));
  let at = 0;
  let entry = 0;
  let phase: 'header' | 'data' = 'header';
  let position = 0;
  for (const x of flat) {
    if (x.kind === 'directory') {
      expect(entry).toBe(entries.length);
      position++;
      continue;
    }
    if (phase === 'header') {
      expect(x).toMatchObject({ kind: 'local-header', entry });
      phase = 'data';
      at = 0;
    } else if (x.kind === 'descriptor') {
      expect({ entry: x.entry, at }).toEqual({ entry, at: entries[entry]!.size });
      entry++;
      phase = 'header';
    } else {
      expect({ entry: x.entry, start: x.start }).toEqual({ entry, start: at });
      at = x.end!;
    }
  }
  expect(entry).toBe(entries.length);
  expect(position).toBe(1);
  expect(flat.at(-1)!.kind).toBe('directory');
  // The size from the streaming writer's own layout function.
  expect(plan.size).toBe(zipSize(entries.map((e) => ({ nameBytes: new Uint8Array(e.nameBytes), size: e.size }))));
}

/** The largest assembled part of small files and framing (a file read through whole is streamed in a part of its own size). */
const maxAssembled = (plan: ComposePlan) =>
  Math.max(
    ...plan.parts
      .filter(
        (p) => p.kind === 'upload' && !p.pieces.some((x) => x.kind === 'read' && plan.readThrough.includes(x.entry)),
      )
      .map((p) => p.size),
  );
const directoryBytes = (plan: ComposePlan) => {
  const last = plan.parts.at(-1)!;
  return last.kind === 'upload' ? last.pieces.reduce((n, p) => n + (p.kind === 'directory' ? p.bytes : 0), 0) : 0;
};

function checkInvocations(plan: ComposePlan): { invocations: number; hours: number } {
  const runs = invocationsOf(plan, RATES, INVOCATION_BUDGET_S);
  expect(Math.max(...runs.map((r) => r.seconds))).toBeLessThanOrEqual(INVOCATION_BUDGET_S);
  // Contiguous and complete: each invocation takes up where the previous stopped.
  expect(runs[0]!.first).toBe(1);
  runs.forEach((r, i) => i > 0 && expect(r.first).toBe(runs[i - 1]!.last + 1));
  expect(runs.at(-1)!.last).toBe(plan.parts.length);
  return { invocations: runs.length, hours: runs.reduce((n, r) => n + r.seconds, 0) / 3600 };
}

describe('an archive composed inside S3, at the sizes the plans sell', () => {
  it(`the largest transfer (${MAX_TRANSFER_BYTES / TB} TB) in the most files (${MAX_FILES}): within S3's limits, bounded memory, each invocation within its time`, () => {
    expect(MAX_TRANSFER_BYTES).toBeGreaterThanOrEqual(2.5 * TB);
    const entries = sized(evenSizes(MAX_TRANSFER_BYTES, MAX_FILES));
    const plan = planComposedZip(entries, { uploadPartBytes: UPLOAD_PART_BYTES });
    checkPlan(entries, plan);
    // S3 copies nearly all of it: what passes through the builder is at most one part minimum per file.
    expect(plan.totals.readBytes).toBeLessThanOrEqual(
      MAX_FILES * S3_MIN_PART_BYTES + 2 * (MAX_TRANSFER_BYTES / MAX_FILES),
    );
    expect(plan.totals.copyBytes / MAX_TRANSFER_BYTES).toBeGreaterThan(0.98);
    expect(maxAssembled(plan)).toBeLessThanOrEqual(UPLOAD_PART_BYTES + directoryBytes(plan));
    const { invocations, hours } = checkInvocations(plan);
    expect(invocations).toBeGreaterThan(1);
    expect(hours).toBeLessThan(6);
  });

  it('2.5 TB in 5,000 files: 2 parts a file would be 10,001, so the smallest copied file is read through', () => {
    const entries = sized(evenSizes(2.5 * TB, 5000));
    const plan = planComposedZip(entries, { uploadPartBytes: UPLOAD_PART_BYTES });
    checkPlan(entries, plan);
    expect(plan.readThrough.length).toBeGreaterThan(0);
    expect(plan.readThrough.length).toBeLessThan(10);
    checkInvocations(plan);
  });

  it('one file of the largest transfer: copy ranges of at most 5 GiB, a few bytes read', () => {
    const entries = sized([MAX_TRANSFER_BYTES]);
    const plan = planComposedZip(entries);
    checkPlan(entries, plan);
    expect(plan.parts.filter((p) => p.kind === 'copy').length).toBeGreaterThanOrEqual(
      Math.ceil(MAX_TRANSFER_BYTES / S3_MAX_PART_BYTES),
    );
    expect(plan.totals.readBytes).toBeLessThanOrEqual(S3_MIN_PART_BYTES);
    expect(plan.zip64).toEqual([true]);
    checkInvocations(plan);
  });

  it('the most files, each tiny: read through in a few assembled parts, nothing copied', () => {
    const entries = sized(
      Array.from({ length: MAX_FILES }, (_, i) => (i % 7 === 0 ? 0 : 1 + ((i * 7919) % (64 * KiB)))),
    );
    const plan = planComposedZip(entries, { uploadPartBytes: UPLOAD_PART_BYTES });
    checkPlan(entries, plan);
    expect(plan.totals.copyBytes).toBe(0);
    expect(plan.parts.every((p) => p.kind === 'upload')).toBe(true);
    expect(maxAssembled(plan)).toBeLessThanOrEqual(UPLOAD_PART_BYTES + directoryBytes(plan));
  });

  it('mixed and adversarial sizes: many just copyable files beside a few huge ones, files at the 5 MiB lines', () => {
    const huge = Math.floor((MAX_TRANSFER_BYTES - (MAX_FILES - 300) * (10 * MiB + 1)) / 300);
    const cases: number[][] = [
      [...Array.from({ length: MAX_FILES - 300 }, () => 10 * MiB + 1), ...Array.from({ length: 300 }, () => huge)],
      Array.from(
        { length: MAX_FILES },
        (_, i) => [5 * MiB - 1, 5 * MiB, 5 * MiB + 1, 10 * MiB - 1, 10 * MiB, 5 * GiB + 1][i % 6]!,
      ),
      Array.from({ length: 2000 }, (_, i) => (i % 2 ? 1 : 6 * GiB)),
    ];
    for (const sizes of cases) {
      const entries = sized(sizes);
      const plan = planComposedZip(entries, { uploadPartBytes: UPLOAD_PART_BYTES });
      checkPlan(entries, plan);
      expect(maxAssembled(plan)).toBeLessThanOrEqual(UPLOAD_PART_BYTES + directoryBytes(plan));
      checkInvocations(plan);
    }
  });

  it('is a function of the names and sizes only: every invocation derives the same parts', () => {
    const entries = sized(evenSizes(40 * GiB, 333));
    expect(planComposedZip(entries)).toEqual(planComposedZip(entries));
  });

  it('refuses entries it cannot plan', () => {
    expect(() => planComposedZip([{ nameBytes: 4, size: -1 }])).toThrow(RangeError);
    expect(() => planComposedZip([{ nameBytes: 0, size: 1 }])).toThrow(RangeError);
  });
});

describe('the composed bytes', () => {
  /** Small limits, so real bytes can be composed: the same rules at a 64 KiB scale. */
  const SMALL = {
    minPartBytes: 64 * KiB,
    maxPartBytes: 1024 * KiB,
    uploadPartBytes: 100 * KiB,
    copyPartBytes: 200 * KiB,
  };

  async function compare(
    sizes: readonly number[],
    forceZip64: boolean,
    opts: ComposeOptions & { minPartBytes: number } = SMALL,
  ): Promise<ComposePlan> {
    const now = Date.UTC(2026, 10, 28, 12);
    const files = sizes.map((size, i) => ({
      name: `dir ${i % 3}/file-${i}.bin`,
      size,
      data: randomBytes(size),
      mtime: now - i * 1000,
    }));
    const streamPlan = planZip(files, { forceZip64, now });
    const streamed: Buffer[] = [];
    for await (const chunk of zipStream(streamPlan, async function* (e) {
      yield e.data;
    }))
      streamed.push(Buffer.from(chunk));

    const framed = streamPlan.entries.map((e) => ({
      nameBytes: Buffer.from(e.entryName, 'utf8'),
      mtimeMs: e.mtimeMs,
      size: e.size,
      crc: crc32(e.data),
    }));
    const plan = planComposedZip(
      framed.map((e) => ({ nameBytes: e.nameBytes.length, size: e.size })),
      { ...opts, forceZip64 },
    );
    const composed = plan.parts.map((p) =>
      p.kind === 'copy'
        ? files[p.entry]!.data.subarray(p.start, p.end)
        : Buffer.concat(
            p.pieces.map((x) =>
              x.kind === 'read' ? files[x.entry]!.data.subarray(x.start, x.end) : framingBytes(x, plan, framed),
            ),
          ),
    );
    plan.parts.forEach((p, i) => {
      expect(composed[i]!.length).toBe(p.size);
      if (i < plan.parts.length - 1) expect(p.size).toBeGreaterThanOrEqual(opts.minPartBytes);
    });
    expect(Buffer.concat(composed).equals(Buffer.concat(streamed))).toBe(true);
    return plan;
  }

  it('equal the streamed archive, byte for byte, for copied, read-through and empty files', async () => {
    const plan = await compare([0, 10, 300 * KiB, 64 * KiB, 129 * KiB, 1, 700 * KiB, 0, 90 * KiB, 2500 * KiB], false);
    expect(plan.parts.some((p) => p.kind === 'copy')).toBe(true);
    expect(plan.parts.some((p) => p.kind === 'upload' && p.pieces.some((x) => x.kind === 'read'))).toBe(true);
  });

  it('equal it with ZIP64 records too', async () => {
    await compare([5, 400 * KiB, 0, 130 * KiB], true);
  });

  it('equal it when the part count forces files to be read through', async () => {
    const plan = await compare(
      Array.from({ length: 12 }, () => 140 * KiB),
      false,
      { ...SMALL, maxParts: 18 },
    );
    expect(plan.readThrough.length).toBeGreaterThan(0);
    expect(plan.parts.length).toBeLessThanOrEqual(18);
  });
});
