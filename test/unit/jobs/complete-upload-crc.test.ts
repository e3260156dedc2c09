/**
 * A file's CRC-32, as its uploader computed it: recorded with each part (POST …/parts), joined
 * in part order when the file completes (inline and in the complete-upload job), or taken from
 * the complete call for a single PUT. A part without one leaves the file without, never a failed
 * completion; a value outside 0..2^32-1 is refused with 400 invalid_request.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  CompleteMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { apiEvent, ddbMock, groupHandler, jsonOf, useUnitEnv } from '../../helpers/aws-mock';
import { keys } from '../../../functions/data/keys';
import { listParts } from '../../../functions/data/transfers';
import { v1CompleteFileSchema, v1RecordPartSchema } from '../../../functions/domain/public-api';
import { partRange } from '../../../functions/domain/upload';
import { MiB } from '../../../functions/domain/units';
import { COMPLETION_LEASE_MS, crc32OfParts } from '../../../functions/services/completion';
import { handler as job } from '../../../functions/jobs/complete-upload';
import { hashToken } from '../../../functions/lib/secrets';

useUnitEnv({ MALWARE_SCANNER: 'guardduty', JOB_FUNCTIONS: JSON.stringify({ 'complete-upload': 'fn-complete' }) });

const s3 = mockClient(S3Client);
const TOKEN = 'u'.repeat(43);
const now = Date.now();
const SLUG = 'Crc0001';
const FILE = 'Fil0000001';
const ATTEMPT = '0f8e2c9a-3b1d-4e6f-8a7b-5c4d3e2f1a0b';

/** three parts of uneven sizes: what is joined must follow each part's own length */
const PART_BYTES = [randomBytes(64 * 1024), randomBytes(64 * 1024), randomBytes(10_001)];
const WHOLE = Buffer.concat(PART_BYTES);

const transferItem = {
  ...keys.transfer(SLUG),
  entity: 'Transfer',
  slug: SLUG,
  status: 'uploading',
  region: 'hongkong',
  anon: false,
  sendAs: 'link',
  senderEmail: 'sender@example.com',
  senderId: 'user-1',
  message: '',
  lang: 'en',
  recipients: [],
  shareWith: [],
  uploadTokenHash: hashToken(TOKEN),
  uploadTokenExpiresAt: now + 86_400_000,
  fileCount: 1,
  totalBytes: WHOLE.length,
  createdAt: now - 60_000,
  expirySeconds: 604_800,
  expiryDate: now + 604_800_000,
  totalDownloads: 0,
};

function fileItem(extra: Record<string, unknown> = {}) {
  return {
    ...keys.transferFile(SLUG, FILE),
    entity: 'TransferFile',
    slug: SLUG,
    fileId: FILE,
    fileName: 'a.bin',
    key: `t/${SLUG}/${FILE}`,
    size: WHOLE.length,
    mode: 'multipart',
    uploadId: 'up-1',
    partSize: 64 * 1024,
    partCount: PART_BYTES.length,
    status: 'pending',
    createdAt: now - 50_000,
    ...extra,
  };
}

function partItems(withCrc: (n: number) => boolean = () => true) {
  return PART_BYTES.map((bytes, i) => ({
    ...keys.transferPart(SLUG, FILE, i + 1),
    entity: 'TransferPart',
    fileId: FILE,
    partNumber: i + 1,
    etag: `"e${i + 1}"`,
    size: bytes.length,
    ...(withCrc(i + 1) ? { crc32: zlib.crc32(bytes) } : {}),
  }));
}

function given(file: Record<string, unknown>, parts: Record<string, unknown>[] = []) {
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: transferItem });
  ddbMock.on(GetCommand, { Key: keys.transferFile(SLUG, FILE) }).resolves({ Item: fileItem(file) });
  ddbMock
    .on(QueryCommand)
    .callsFake(async (input: { ExpressionAttributeValues: Record<string, string> }) =>
      String(input.ExpressionAttributeValues[':p']).startsWith(keys.partPrefix(FILE))
        ? { Items: parts }
        : { Items: [fileItem({ ...file, status: 'uploaded' })] },
    );
  s3.on(HeadObjectCommand).resolves({ ContentLength: Number(file.size ?? WHOLE.length) });
}

/** The update that marked the file uploaded. */
function uploadedMark() {
  const marks = ddbMock
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter(
      (i) =>
        (i.Key as { sk?: string }).sk === keys.transferFile(SLUG, FILE).sk &&
        i.ExpressionAttributeValues?.[':u'] === 'uploaded',
    );
  expect(marks).toHaveLength(1);
  return marks[0]!;
}

beforeEach(() => {
  ddbMock.reset();
  s3.reset();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(UpdateCommand).resolves({});
  ddbMock.on(PutCommand).resolves({});
  s3.on(CompleteMultipartUploadCommand).resolves({ ETag: '"whole"' });
});

describe('joining the parts’ CRC-32s', () => {
  it('gives the CRC-32 of the whole file, whatever order the parts were listed in', () => {
    const parts = partItems().map(({ partNumber, etag, size, crc32 }) => ({ partNumber, etag, size, crc32 }));
    expect(crc32OfParts(parts)).toBe(zlib.crc32(WHOLE));
    expect(crc32OfParts([...parts].reverse())).toBe(zlib.crc32(WHOLE));
  });

  it('gives none when a part has none, or there are no parts', () => {
    const parts = partItems((n) => n !== 2).map(({ partNumber, etag, size, crc32 }) => ({
      partNumber,
      etag,
      size,
      ...(crc32 === undefined ? {} : { crc32 }),
    }));
    expect(crc32OfParts(parts)).toBeUndefined();
    expect(crc32OfParts([])).toBeUndefined();
  });
});

describe('the complete-upload job', () => {
  const claimed = { status: 'completing', completeAttempt: ATTEMPT, completeLeaseUntil: now + COMPLETION_LEASE_MS };

  it('records the file’s CRC-32 joined from its parts’ when it marks the file uploaded', async () => {
    given(claimed, partItems());
    await expect(job({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('done');
    const mark = uploadedMark();
    expect(mark.UpdateExpression).toContain('crc32 = :crc');
    expect(mark.ExpressionAttributeValues?.[':crc']).toBe(zlib.crc32(WHOLE));
  });

  it('a part recorded without a CRC-32 completes the file all the same, with none recorded', async () => {
    given(
      claimed,
      partItems((n) => n !== 3),
    );
    await expect(job({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('done');
    const mark = uploadedMark();
    expect(mark.UpdateExpression).not.toContain('crc32');
    expect(mark.ExpressionAttributeValues).not.toHaveProperty(':crc');
  });
});

describe('POST /transfers/{id}/files/{fileId}/complete', () => {
  const completion = groupHandler('completion');
  const complete = (body?: unknown) =>
    completion(
      apiEvent('POST /api/transfers/{id}/files/{fileId}/complete', {
        rawPath: `/api/transfers/${SLUG}/files/${FILE}/complete`,
        pathParameters: { id: SLUG, fileId: FILE },
        headers: { 'x-upload-token': TOKEN },
        ...(body === undefined ? {} : { body }),
      }),
    );

  it('a multipart file put together inline gets its parts’ joined CRC-32', async () => {
    given({}, partItems());
    const res = await complete();
    expect(res.statusCode).toBe(200);
    expect(uploadedMark().ExpressionAttributeValues?.[':crc']).toBe(zlib.crc32(WHOLE));
  });

  const storedBody = (bytes: Uint8Array) => ({ Body: Readable.from([Buffer.from(bytes)]) as never });

  it('a single PUT gets the CRC-32 its complete call carries, checked against the stored bytes (0 for an empty file)', async () => {
    given({ mode: 'single', uploadId: undefined, partSize: undefined, partCount: undefined });
    s3.on(GetObjectCommand).callsFake(async () => storedBody(WHOLE));
    expect((await complete({ crc32: zlib.crc32(WHOLE) })).statusCode).toBe(200);
    expect(uploadedMark().ExpressionAttributeValues?.[':crc']).toBe(zlib.crc32(WHOLE));

    ddbMock.resetHistory();
    given({ mode: 'single', size: 0, uploadId: undefined, partSize: undefined, partCount: undefined });
    s3.on(GetObjectCommand).callsFake(async () => storedBody(new Uint8Array(0)));
    expect((await complete({ crc32: 0 })).statusCode).toBe(200);
    expect(uploadedMark().ExpressionAttributeValues?.[':crc']).toBe(0);
  });

  it('a single PUT whose stored bytes differ from its CRC-32 is reset: 409 checksum_mismatch, the object deleted', async () => {
    given({ mode: 'single', uploadId: undefined, partSize: undefined, partCount: undefined });
    const flipped = Buffer.from(WHOLE);
    flipped[7]! ^= 1;
    s3.on(GetObjectCommand).callsFake(async () => storedBody(flipped));
    s3.on(DeleteObjectCommand).resolves({});
    const res = await complete({ crc32: zlib.crc32(WHOLE) });
    expect(res.statusCode).toBe(409);
    expect(jsonOf(res).error).toMatchObject({ code: 'checksum_mismatch', details: { fileId: FILE, reset: true } });
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toMatchObject({ Key: `t/${SLUG}/${FILE}` });
  });

  it('a single PUT completed without a body or without a CRC-32 is uploaded with none recorded', async () => {
    given({ mode: 'single', uploadId: undefined, partSize: undefined, partCount: undefined });
    for (const body of [undefined, {}]) {
      ddbMock.resetHistory();
      expect((await complete(body)).statusCode).toBe(200);
      expect(uploadedMark().UpdateExpression).not.toContain('crc32');
    }
  });

  it('a multipart file ignores a crc32 in the body: its CRC-32 is its parts’', async () => {
    given(
      {},
      partItems((n) => n !== 1),
    );
    expect((await complete({ crc32: 12345 })).statusCode).toBe(200);
    expect(uploadedMark().UpdateExpression).not.toContain('crc32');
  });

  it.each([
    ['above 2^32 - 1', 2 ** 32],
    ['negative', -1],
    ['not an integer', 1.5],
    ['a string', '123'],
  ])('refuses a crc32 %s with 400 invalid_request, before touching anything', async (_, crc32) => {
    given({ mode: 'single', uploadId: undefined, partSize: undefined, partCount: undefined });
    const res = await complete({ crc32 });
    expect(res.statusCode).toBe(400);
    expect(jsonOf(res).error?.code).toBe('invalid_request');
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('POST /transfers/{id}/parts', () => {
  const transfers = groupHandler('transfers');
  const SIZE = 60 * MiB;
  const record = (body: unknown) =>
    transfers(
      apiEvent('POST /api/transfers/{id}/parts', {
        rawPath: `/api/transfers/${SLUG}/parts`,
        pathParameters: { id: SLUG },
        headers: { 'x-upload-token': TOKEN },
        body,
      }),
    );
  const part1 = () => {
    const { start, end } = partRange(SIZE, 1);
    return { fileId: FILE, partNumber: 1, etag: '"e1"', size: end - start };
  };

  it('stores the part’s CRC-32 with it, and the part list reads it back', async () => {
    given({ size: SIZE, partSize: partRange(SIZE, 1).end, partCount: Math.ceil(SIZE / partRange(SIZE, 1).end) });
    expect((await record({ ...part1(), crc32: 0xffff_ffff })).statusCode).toBe(200);
    const put = ddbMock.commandCalls(PutCommand).map((c) => c.args[0].input.Item);
    expect(put).toEqual([expect.objectContaining({ partNumber: 1, crc32: 0xffff_ffff })]);

    ddbMock.on(QueryCommand).resolves({ Items: put as Record<string, unknown>[] });
    const { fileId: _, ...recorded } = part1();
    // parts also carry when they were recorded (a live upload's time left)
    expect(await listParts(SLUG, FILE)).toEqual([{ ...recorded, crc32: 0xffff_ffff, at: expect.any(Number) }]);
  });

  it('a part without one is stored without (older clients)', async () => {
    given({ size: SIZE, partSize: partRange(SIZE, 1).end, partCount: Math.ceil(SIZE / partRange(SIZE, 1).end) });
    expect((await record(part1())).statusCode).toBe(200);
    const item = ddbMock.commandCalls(PutCommand)[0]!.args[0].input.Item;
    expect(item).not.toHaveProperty('crc32');
    ddbMock.on(QueryCommand).resolves({ Items: [item!] });
    const { fileId: _, ...recorded } = part1();
    expect(await listParts(SLUG, FILE)).toEqual([{ ...recorded, at: expect.any(Number) }]);
  });

  it.each([2 ** 32, -1, 0.5, '1'])('refuses crc32 %s with 400 invalid_request', async (crc32) => {
    given({ size: SIZE });
    const res = await record({ ...part1(), crc32 });
    expect(res.statusCode).toBe(400);
    expect(jsonOf(res).error?.code).toBe('invalid_request');
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
  });
});

describe('the public API’s schemas', () => {
  it('take crc32 from 0 to 2^32 - 1 only, and the file’s complete call with no body at all', () => {
    const part = { fileId: FILE, partNumber: 1, etag: '"e"', size: 5 };
    for (const crc32 of [0, 1, 0xffff_ffff]) {
      expect(v1RecordPartSchema.safeParse({ ...part, crc32 }).success).toBe(true);
      expect(v1CompleteFileSchema.safeParse({ crc32 }).success).toBe(true);
    }
    for (const crc32 of [2 ** 32, -1, 0.5, '1', null]) {
      expect(v1RecordPartSchema.safeParse({ ...part, crc32 }).success).toBe(false);
      expect(v1CompleteFileSchema.safeParse({ crc32 }).success).toBe(false);
    }
    expect(v1CompleteFileSchema.safeParse(undefined).success).toBe(true);
    expect(v1RecordPartSchema.safeParse(part).success).toBe(true);
  });
});
