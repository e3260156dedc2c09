/**
 * The new-version service (services/file-versions.ts) with the table's client mocked: who may
 * send a version of which file of which transfer (owner, sent and unexpired, current version),
 * and what a granted one writes: one file item naming the first version with the next number,
 * the files an earlier upload left pending dropped, and a new upload token on the transfer.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { AbortMultipartUploadCommand, DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ddbMock, useUnitEnv } from '../../helpers/aws-mock';
import { keys } from '../../../functions/data/keys';
import { hashToken } from '../../../functions/lib/secrets';
import { HttpError } from '../../../functions/lib/errors';
import { startNewVersion } from '../../../functions/services/file-versions';
import type { Sender } from '../../../functions/services/transfers';

useUnitEnv();
const s3 = mockClient(S3Client);

const now = Date.UTC(2026, 10, 28, 12, 0, 0);
const SLUG = 'Vers001';
const OWNER = 'user-owner';

const sender = (userId = OWNER): Extract<Sender, { kind: 'user' }> => ({
  kind: 'user',
  userId,
  email: `${userId}@example.com`,
  role: 'pro',
  profile: { userId, email: `${userId}@example.com`, role: 'pro' },
});

const transfer = (extra: Record<string, unknown> = {}) => ({
  ...keys.transfer(SLUG),
  entity: 'Transfer',
  slug: SLUG,
  status: 'ready',
  region: 'hongkong',
  anon: false,
  sendAs: 'link',
  senderId: OWNER,
  senderEmail: 'owner@example.com',
  message: '',
  lang: 'en',
  recipients: [],
  shareWith: [],
  uploadTokenHash: hashToken('u'.repeat(43)),
  uploadTokenExpiresAt: now - 1000,
  fileCount: 2,
  totalBytes: 300,
  createdAt: now - 86_400_000,
  expirySeconds: 604_800,
  expiryDate: now + 86_400_000,
  totalDownloads: 0,
  ...extra,
});

const file = (fileId: string, extra: Record<string, unknown> = {}) => ({
  ...keys.transferFile(SLUG, fileId),
  slug: SLUG,
  fileId,
  fileName: `${fileId}.png`,
  key: `t/${SLUG}/${fileId}`,
  size: 100,
  mode: 'single',
  status: 'uploaded',
  createdAt: now - 86_400_000,
  ...extra,
});

function given(t: Record<string, unknown>, files: Record<string, unknown>[]) {
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: t });
  ddbMock.on(QueryCommand).resolves({ Items: [] });
  ddbMock
    .on(QueryCommand, { ExpressionAttributeValues: { ':pk': `TRANSFER#${SLUG}`, ':p': keys.filePrefix } })
    .resolves({
      Items: files,
    });
  ddbMock.on(UpdateCommand).resolves({});
  ddbMock.on(TransactWriteCommand).resolves({});
  ddbMock.on(BatchWriteCommand).resolves({});
}

async function refusal(p: Promise<unknown>): Promise<[number, string]> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return [(err as HttpError).statusCode, (err as HttpError).code];
}

const body = { fileName: 'A-final.png', size: 50 };

beforeEach(() => {
  ddbMock.reset();
  s3.reset();
  s3.on(DeleteObjectCommand).resolves({});
  s3.on(AbortMultipartUploadCommand).resolves({});
});

describe('startNewVersion', () => {
  it('writes the next version of the current file, drops pending leftovers and sets a new upload token', async () => {
    given(transfer(), [
      file('A000000001'),
      file('A000000002', { versionOf: 'A000000001', version: 2 }),
      file('B000000001'),
      file('P000000001', { status: 'pending' }),
    ]);
    const answer = await startNewVersion(SLUG, 'A000000002', body, sender(), now);
    expect(answer.id).toBe(SLUG);
    expect(answer.uploadToken).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(answer.files).toHaveLength(1);
    expect(answer.files[0]).toMatchObject({ fileName: 'A-final.png', size: 50, mode: 'single' });
    expect(answer.files[0]!.url).toContain(`t/${SLUG}/${answer.files[0]!.fileId}`);

    const puts = ddbMock
      .commandCalls(BatchWriteCommand)
      .flatMap((c) => Object.values(c.args[0].input.RequestItems ?? {}).flat())
      .map((r) => r as { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: unknown } });
    const written = puts.flatMap((r) => (r.PutRequest ? [r.PutRequest.Item] : []));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      fileId: answer.files[0]!.fileId,
      versionOf: 'A000000001',
      version: 3,
      status: 'pending',
      entity: 'TransferFile',
    });
    expect(written[0]!.notifyRecipients).toBeUndefined();
    expect(puts.flatMap((r) => (r.DeleteRequest ? [r.DeleteRequest.Key] : []))).toContainEqual(
      keys.transferFile(SLUG, 'P000000001'),
    );
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([`t/${SLUG}/P000000001`]);
    const token = ddbMock
      .commandCalls(UpdateCommand)
      .map((c) => c.args[0].input)
      .find((i) => String(i.UpdateExpression).includes('uploadTokenHash'));
    expect(token?.ExpressionAttributeValues?.[':h']).toBe(hashToken(answer.uploadToken));
  });

  it('keeps the mail flag when the sender asks to tell the recipients', async () => {
    given(transfer(), [file('A000000001')]);
    await startNewVersion(SLUG, 'A000000001', { ...body, notify: true }, sender(), now);
    const item = ddbMock
      .commandCalls(BatchWriteCommand)
      .flatMap((c) => Object.values(c.args[0].input.RequestItems ?? {}).flat())
      .map((r) => (r as { PutRequest?: { Item: Record<string, unknown> } }).PutRequest?.Item)
      .find(Boolean);
    expect(item).toMatchObject({ version: 2, versionOf: 'A000000001', notifyRecipients: true });
  });

  it('refuses another user (403), and an unknown or deleted transfer (404)', async () => {
    given(transfer(), [file('A000000001')]);
    expect(await refusal(startNewVersion(SLUG, 'A000000001', body, sender('someone-else'), now))).toEqual([
      403,
      'not_owner',
    ]);
    given(transfer({ status: 'deleted' }), [file('A000000001')]);
    expect(await refusal(startNewVersion(SLUG, 'A000000001', body, sender(), now))).toEqual([
      404,
      'transfer_not_found',
    ]);
  });

  it('refuses a transfer still uploading (409) or expired (410)', async () => {
    given(transfer({ status: 'uploading' }), [file('A000000001')]);
    expect(await refusal(startNewVersion(SLUG, 'A000000001', body, sender(), now))).toEqual([409, 'transfer_not_sent']);
    given(transfer({ expiryDate: now - 1 }), [file('A000000001')]);
    expect(await refusal(startNewVersion(SLUG, 'A000000001', body, sender(), now))).toEqual([410, 'transfer_expired']);
    given(transfer({ status: 'expired' }), [file('A000000001')]);
    expect(await refusal(startNewVersion(SLUG, 'A000000001', body, sender(), now))).toEqual([410, 'transfer_expired']);
  });

  it('refuses a replaced version (409, naming the current one), an unknown file (404) and a bad name (400), writing nothing', async () => {
    given(transfer(), [file('A000000001'), file('A000000002', { versionOf: 'A000000001', version: 2 })]);
    const stale = await startNewVersion(SLUG, 'A000000001', body, sender(), now).catch((e: unknown) => e);
    expect(stale).toMatchObject({
      statusCode: 409,
      code: 'not_current_version',
      details: { currentFileId: 'A000000002' },
    });
    expect(await refusal(startNewVersion(SLUG, 'Z000000001', body, sender(), now))).toEqual([404, 'file_not_found']);
    expect(await refusal(startNewVersion(SLUG, 'A000000002', { fileName: '..', size: 3 }, sender(), now))).toEqual([
      400,
      'invalid_request',
    ]);
    expect(ddbMock.commandCalls(BatchWriteCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
