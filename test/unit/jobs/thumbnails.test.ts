/**
 * The thumbnails job (functions/jobs/thumbnails.ts) with the table's and S3's clients mocked; the
 * image is a real PNG made and read by sharp, as the Lambda does.
 */
import { Readable } from 'node:stream';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { conditionFailed, ddbMock, serviceError, TABLE, useUnitEnv } from '../../helpers/aws-mock';
import { keys } from '../../../functions/data/keys';
import { thumbnailKeyOf } from '../../../functions/domain/previews';
import { handler } from '../../../functions/jobs/thumbnails';

useUnitEnv();

const s3 = mockClient(S3Client);
const now = Date.now();
const SLUG = 'Thm0001';
const FILE = 'Img0000001';
const KEY = `t/${SLUG}/${FILE}`;
const CLAIMED = now - 5000;
let png: Buffer;

const transfer = {
  ...keys.transfer(SLUG),
  entity: 'Transfer',
  slug: SLUG,
  status: 'ready',
  region: 'frankfurt',
  anon: false,
  senderId: 'u1',
  storageOwner: 'u1',
  recipients: [],
  expiryDate: now + 86_400_000,
  totalDownloads: 0,
};
const file = () => ({
  ...keys.transferFile(SLUG, FILE),
  slug: SLUG,
  fileId: FILE,
  key: KEY,
  fileName: 'photo.png',
  size: png.length,
  status: 'uploaded',
  thumbStatus: 'building',
  thumbStartedAt: CLAIMED,
  createdAt: now - 60_000,
});
const finishes = () =>
  ddbMock
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((i) => (i.Key as { sk?: string }).sk === keys.transferFile(SLUG, FILE).sk);

beforeAll(async () => {
  png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
});

beforeEach(() => {
  ddbMock.reset();
  s3.reset();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(UpdateCommand).resolves({});
  ddbMock.on(TransactWriteCommand).resolves({});
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: transfer });
  ddbMock.on(GetCommand, { Key: keys.transferFile(SLUG, FILE) }).resolves({ Item: file() });
  s3.on(GetObjectCommand).callsFake(async () => ({ Body: Readable.from([png]), ContentLength: png.length }));
  s3.on(PutObjectCommand).resolves({});
  s3.on(DeleteObjectCommand).resolves({});
});

describe('thumbnails job', () => {
  it('reads the image from its bucket, stores a WebP thumbnail beside it, marks it ready over its own claim and charges its bytes', async () => {
    expect(await handler({ slug: SLUG, fileIds: [FILE], claimedAt: CLAIMED })).toEqual({ made: 1, failed: 0 });

    expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'fra-transfers', Key: KEY });
    const put = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(put).toMatchObject({ Bucket: 'fra-transfers', Key: thumbnailKeyOf(KEY), ContentType: 'image/webp' });
    const thumb = await sharp(put.Body as Buffer).metadata();
    expect(thumb.format).toBe('webp');
    expect(Math.max(thumb.width!, thumb.height!)).toBeLessThanOrEqual(640);

    const [finish] = finishes();
    expect(finish).toMatchObject({
      TableName: TABLE,
      UpdateExpression: 'SET thumbStatus = :r, thumbBytes = :n',
      ConditionExpression: 'thumbStatus = :b AND thumbStartedAt = :at',
      ExpressionAttributeValues: { ':r': 'ready', ':at': CLAIMED, ':n': (put.Body as Buffer).byteLength },
    });
    const charge = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Update!;
    expect(charge).toMatchObject({
      Key: keys.transfer(SLUG),
      UpdateExpression: 'ADD reservedBytes :b',
      ExpressionAttributeValues: { ':b': (put.Body as Buffer).byteLength, ':o': 'u1' },
    });
  });

  it('an image gone from S3 (NoSuchKey) is marked failed over its claim, never left building, and its partial thumbnail removed', async () => {
    s3.on(GetObjectCommand).rejects(serviceError('NoSuchKey', 'The specified key does not exist.', 404));
    expect(await handler({ slug: SLUG, fileIds: [FILE], claimedAt: CLAIMED })).toEqual({ made: 0, failed: 1 });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: 'fra-transfers',
      Key: thumbnailKeyOf(KEY),
    });
    expect(finishes()).toEqual([
      expect.objectContaining({
        UpdateExpression: 'SET thumbStatus = :r',
        ExpressionAttributeValues: { ':r': 'failed', ':b': 'building', ':at': CLAIMED },
      }),
    ]);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a claim another build took over (failed condition) is not charged twice', async () => {
    ddbMock.on(UpdateCommand, { Key: keys.transferFile(SLUG, FILE) }).rejects(conditionFailed());
    expect(await handler({ slug: SLUG, fileIds: [FILE], claimedAt: CLAIMED })).toEqual({ made: 0, failed: 0 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a throttled table fails the invocation (the async invoke retries it) rather than drop the outcome', async () => {
    ddbMock
      .on(UpdateCommand, { Key: keys.transferFile(SLUG, FILE) })
      .rejects(serviceError('ProvisionedThroughputExceededException', 'throttled'));
    await expect(handler({ slug: SLUG, fileIds: [FILE], claimedAt: CLAIMED })).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
  });

  it('a transfer deleted meanwhile: the claims are handed back, nothing is read from S3', async () => {
    ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: { ...transfer, status: 'deleted' } });
    expect(await handler({ slug: SLUG, fileIds: [FILE], claimedAt: CLAIMED })).toEqual({ made: 0, failed: 0 });
    expect(finishes()).toEqual([
      expect.objectContaining({
        UpdateExpression: 'REMOVE thumbStatus, thumbStartedAt',
        ExpressionAttributeValues: { ':b': 'building', ':at': CLAIMED },
      }),
    ]);
    expect(s3.calls()).toHaveLength(0);
  });

  it('bad input is refused without a call to AWS', async () => {
    expect(await handler({ slug: SLUG, fileIds: [], claimedAt: CLAIMED })).toEqual({ made: 0, failed: 0 });
    expect(ddbMock.calls()).toHaveLength(0);
    expect(s3.calls()).toHaveLength(0);
  });
});
