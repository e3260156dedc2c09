/**
 * The digest job's input and which files the manifest route starts digests for; the job's
 * reading, pausing and resuming run against the emulators (test/integration/verifiable-downloads.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FileRecord } from '../../../functions/data/transfers';
import { handler } from '../../../functions/jobs/digest';
import { DIGEST_RESTARTS_PER_REQUEST, digestsToStart } from '../../../functions/services/digest-start';

const NOW = 1_800_000_000_000;

function file(fileId: string, extra: Partial<FileRecord> = {}): FileRecord {
  return {
    slug: 'AbCd123',
    fileId,
    fileName: `${fileId}.bin`,
    size: 10,
    key: `t/AbCd123/${fileId}`,
    mode: 'single',
    status: 'uploaded',
    createdAt: NOW,
    ...extra,
  };
}

describe('the digest job', () => {
  it('refuses an input that is not a transfer, a file and a claim, without touching anything', async () => {
    expect(await handler({ slug: 'AbCd123', fileId: 'x' })).toBe('bad-input');
    expect(await handler(null)).toBe('bad-input');
  });
});

describe('digests the manifest route starts', () => {
  it('starts uploaded files without a digest whose claim is absent or ran out, not the others', () => {
    const files = [
      file('f1'),
      file('f2', { sha256: 'a'.repeat(64) }),
      file('f3', { digestLeaseUntil: NOW + 1000, digestAttempt: 'x' }),
      file('f4', { digestLeaseUntil: NOW - 1, digestAttempt: 'x' }),
      file('f5', { status: 'pending' }),
    ];
    expect(digestsToStart(files, NOW).map((f) => f.fileId)).toEqual(['f1', 'f4']);
  });

  it('starts at most a bounded number a request', () => {
    const many = Array.from({ length: DIGEST_RESTARTS_PER_REQUEST + 5 }, (_, i) => file(`f${i}`));
    expect(digestsToStart(many, NOW)).toHaveLength(DIGEST_RESTARTS_PER_REQUEST);
  });
});
