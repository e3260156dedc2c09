/**
 * Completion that cannot time out: the rule that picks the background path, and the
 * complete-upload job (functions/jobs/complete-upload.ts) with the table's, S3's and SES's clients
 * mocked: it puts the file together once under its claim, counts an upload S3 already finished
 * as done, resets one that can never complete, gives its lease up when S3 fails, and sends the
 * transfer only when asked and never twice.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { conditionFailed, ddbMock, serviceError, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import { keys } from '../../../functions/data/keys';
import {
  INLINE_COMPLETE_MAX_BYTES,
  completesInline,
  completionPollDelayMs,
  completionRetryAfterSeconds,
  MULTIPART_THRESHOLD_BYTES,
} from '../../../functions/domain/upload';
import { GiB, MiB } from '../../../functions/domain/units';
import { jobs } from '../../../functions/routes';
import { COMPLETE_JOB, COMPLETION_LEASE_MS } from '../../../functions/services/completion';
import { handler } from '../../../functions/jobs/complete-upload';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { hashToken } from '../../../functions/lib/secrets';
import { apiEvent, groupHandler, jsonOf } from '../../helpers/aws-mock';

// GuardDuty scans in AWS: the job starts no local scan of its own here.
useUnitEnv({ MALWARE_SCANNER: 'guardduty', JOB_FUNCTIONS: JSON.stringify({ 'complete-upload': 'fn-complete' }) });

const s3 = mockClient(S3Client);
const ses = mockClient(SESv2Client);
const lambda = mockClient(LambdaClient);
const TOKEN = 'u'.repeat(43);
const now = Date.now();
const SLUG = 'Big0001';
const FILE = 'Fil0000001';
const OTHER = 'Fil0000002';
const ATTEMPT = '0f8e2c9a-3b1d-4e6f-8a7b-5c4d3e2f1a0b';
const SIZE = 200 * MiB;
const PARTS = 40;

const transfer = (extra: Record<string, unknown> = {}) => ({
  ...keys.transfer(SLUG),
  entity: 'Transfer',
  slug: SLUG,
  status: 'uploading',
  region: 'hongkong',
  anon: false,
  sendAs: 'email',
  senderEmail: 'sender@example.com',
  senderId: 'user-1',
  message: '',
  lang: 'en',
  recipients: [{ email: 'to@example.com', recipientId: 'r1' }],
  shareWith: [],
  uploadTokenHash: hashToken(TOKEN),
  uploadTokenExpiresAt: now + 86_400_000,
  fileCount: 2,
  totalBytes: SIZE + 10,
  createdAt: now - 60_000,
  expirySeconds: 604_800,
  expiryDate: now + 604_800_000,
  totalDownloads: 0,
  ...extra,
});

const fileItem = (fileId: string, extra: Record<string, unknown> = {}) => ({
  ...keys.transferFile(SLUG, fileId),
  slug: SLUG,
  fileId,
  fileName: `${fileId}.bin`,
  key: `t/${SLUG}/${fileId}`,
  size: SIZE,
  mode: 'multipart',
  uploadId: 'up-1',
  partSize: 5 * MiB,
  partCount: PARTS,
  status: 'completing',
  completeAttempt: ATTEMPT,
  completeLeaseUntil: now + COMPLETION_LEASE_MS,
  createdAt: now - 50_000,
  ...extra,
});

const partItems = Array.from({ length: PARTS }, (_, i) => ({
  ...keys.transferPart(SLUG, FILE, i + 1),
  partNumber: i + 1,
  etag: `"e${i + 1}"`,
  size: 5 * MiB,
}));

/** the updates on the file item, by what they do */
const fileUpdates = () =>
  ddbMock
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((i) => (i.Key as { sk?: string }).sk === keys.transferFile(SLUG, FILE).sk);
const isClaim = (i: { UpdateExpression?: string }) => i.UpdateExpression?.startsWith('SET #s = :c, completeAttempt');
const isFinish = (i: { UpdateExpression?: string }) => i.UpdateExpression?.startsWith('SET #s = :u, scanStatus = :sp');
const isExpire = (i: { UpdateExpression?: string }) =>
  i.UpdateExpression?.startsWith('SET completeLeaseUntil = :z') === true;

function given(opts: {
  transfer?: Record<string, unknown>;
  file?: Record<string, unknown>;
  other?: Record<string, unknown>;
}) {
  const t = transfer(opts.transfer);
  const f = fileItem(FILE, opts.file);
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: t });
  ddbMock.on(GetCommand, { Key: keys.transferFile(SLUG, FILE) }).resolves({ Item: f });
  const files = [
    f,
    ...(opts.other ? [fileItem(OTHER, { size: 10, mode: 'single', status: 'uploaded', ...opts.other })] : []),
  ];
  ddbMock
    .on(QueryCommand)
    .callsFake(async (input: { ExpressionAttributeValues: Record<string, string> }) =>
      String(input.ExpressionAttributeValues[':p']).startsWith(keys.partPrefix(FILE))
        ? { Items: partItems }
        : { Items: files },
    );
}

beforeEach(() => {
  ddbMock.reset();
  s3.reset();
  ses.reset();
  lambda.reset();
  lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(UpdateCommand).resolves({});
  ddbMock.on(TransactWriteCommand).resolves({});
  ddbMock.on(BatchWriteCommand).resolves({});
  s3.on(CompleteMultipartUploadCommand).resolves({ ETag: '"whole-40"' });
  s3.on(HeadObjectCommand).resolves({ ContentLength: SIZE });
  s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-2' });
  s3.on(AbortMultipartUploadCommand).resolves({});
  s3.on(DeleteObjectCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
});

describe('which files complete in the background', () => {
  it('single PUTs and multipart files up to 100 MiB complete inline; larger ones in the job', () => {
    expect(completesInline({ mode: 'single', size: MULTIPART_THRESHOLD_BYTES - 1 })).toBe(true);
    expect(completesInline({ mode: 'multipart', size: MULTIPART_THRESHOLD_BYTES })).toBe(true);
    expect(completesInline({ mode: 'multipart', size: INLINE_COMPLETE_MAX_BYTES })).toBe(true);
    expect(completesInline({ mode: 'multipart', size: INLINE_COMPLETE_MAX_BYTES + 1 })).toBe(false);
    // the measured 4.1 GiB file of 840 parts
    expect(completesInline({ mode: 'multipart', size: Math.round(4.1 * GiB) })).toBe(false);
  });

  it('at ten times s3rver’s slowest 9 s/GiB, the largest inline file still finishes in a third of the 29 s route', () => {
    expect((INLINE_COMPLETE_MAX_BYTES / GiB) * 9 * 10).toBeLessThan(29 / 3);
  });

  it('clients poll after the Retry-After at least, backing off from 1 s to 10 s', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => completionPollDelayMs(n))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(completionPollDelayMs(1, 6)).toBe(6000);
    expect(completionPollDelayMs(5, 6)).toBe(10_000);
    expect(completionPollDelayMs(9, 30)).toBe(30_000);
  });

  it('asks clients to come back after 2 to 10 s, later for larger files', () => {
    expect(completionRetryAfterSeconds(INLINE_COMPLETE_MAX_BYTES + 1)).toBe(2);
    expect(completionRetryAfterSeconds(4 * GiB)).toBe(6);
    expect(completionRetryAfterSeconds(5 * 1024 * GiB)).toBe(10);
  });

  it('a claim outlives the job that holds it: the lease is longer than the job’s Lambda timeout', () => {
    const job = jobs.find((j) => j.name === COMPLETE_JOB);
    expect(job?.timeoutSeconds).toBeDefined();
    expect(COMPLETION_LEASE_MS).toBeGreaterThan(job!.timeoutSeconds! * 1000);
  });
});

describe('the complete-upload job', () => {
  it('puts the recorded parts together with the long timeout, checks the size and marks the file uploaded once', async () => {
    given({});
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('done');
    const complete = s3.commandCalls(CompleteMultipartUploadCommand);
    expect(complete).toHaveLength(1);
    expect(complete[0]!.args[0].input).toMatchObject({ Key: `t/${SLUG}/${FILE}`, UploadId: 'up-1' });
    expect(complete[0]!.args[0].input.MultipartUpload?.Parts).toHaveLength(PARTS);
    const updates = fileUpdates();
    expect(updates.filter(isClaim)).toHaveLength(1);
    expect(updates.filter(isFinish)).toEqual([
      expect.objectContaining({
        ConditionExpression: '#s = :c AND completeAttempt = :a',
        ExpressionAttributeValues: expect.objectContaining({ ':a': ATTEMPT }),
      }),
    ]);
    // the transfer's completion was not asked: nothing is sent
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('an upload S3 already finished (NoSuchUpload, the object there with its size) counts as done', async () => {
    given({});
    s3.on(CompleteMultipartUploadCommand).rejects(
      serviceError('NoSuchUpload', 'The specified upload does not exist.', 404),
    );
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('done');
    expect(fileUpdates().filter(isFinish)).toHaveLength(1);
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('parts that can never complete (NoSuchUpload, no object) reset the upload and remember why', async () => {
    given({});
    s3.on(CompleteMultipartUploadCommand).rejects(
      serviceError('NoSuchUpload', 'The specified upload does not exist.', 404),
    );
    s3.on(HeadObjectCommand).rejects(serviceError('NotFound', 'Not Found', 404));
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('reset');
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(1);
    const reset = fileUpdates().find((i) => i.UpdateExpression?.includes('resetCode = :rc'));
    expect(reset?.ExpressionAttributeValues).toMatchObject({ ':id': 'up-2', ':rc': 'upload_reset' });
    expect(fileUpdates().filter(isFinish)).toHaveLength(0);
  });

  it('S3 failing (500) gives the lease up and fails the run, so it is retried', async () => {
    given({});
    s3.on(CompleteMultipartUploadCommand).rejects(
      serviceError('InternalError', 'We encountered an internal error.', 500),
    );
    s3.on(HeadObjectCommand).rejects(serviceError('NotFound', 'Not Found', 404));
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).rejects.toMatchObject({
      name: 'InternalError',
    });
    expect(fileUpdates().filter(isExpire)).toHaveLength(1);
    expect(fileUpdates().filter(isFinish)).toHaveLength(0);
  });

  it('a claim another live attempt holds is left alone, without touching S3', async () => {
    given({});
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('superseded');
    expect(s3.calls()).toHaveLength(0);
  });

  it('a run whose file another attempt marked meanwhile sends nothing', async () => {
    given({ transfer: { completeRequestedAt: now - 1000 }, other: {} });
    ddbMock.on(UpdateCommand).callsFake(async (input: { UpdateExpression?: string }) => {
      if (isFinish(input)) throw conditionFailed();
      return {};
    });
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('superseded');
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('the last file in, with the completion asked: the transfer is sent once, and a repeated run mails no one again', async () => {
    given({ transfer: { completeRequestedAt: now - 1000 }, file: { status: 'uploaded' }, other: {} });
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('done');
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    const sent = ddbMock.commandCalls(TransactWriteCommand);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.args[0].input.TransactItems?.[0]?.Update?.ConditionExpression).toBe('#s = :uploading');
    const mails = ses.commandCalls(SendEmailCommand).length;
    expect(mails).toBeGreaterThan(0);

    // the same delivery again: markSent's condition fails, so nothing is mailed
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('done');
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(mails);
  });

  it('waits for every file: another still completing keeps the transfer unsent', async () => {
    given({ transfer: { completeRequestedAt: now - 1000 }, other: { status: 'completing' } });
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('done');
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a transfer cancelled while S3 worked: the new object is deleted and the file not marked', async () => {
    given({});
    ddbMock
      .on(GetCommand, { Key: keys.transfer(SLUG) })
      .resolvesOnce({ Item: transfer() })
      .resolves({ Item: transfer({ status: 'cancelled' }) });
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('gone');
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key)).toEqual([`t/${SLUG}/${FILE}`]);
    expect(fileUpdates().filter(isFinish)).toHaveLength(0);
  });

  it('does nothing for a cancelled transfer, and refuses bad input', async () => {
    given({ transfer: { status: 'cancelled' } });
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: ATTEMPT })).resolves.toBe('gone');
    await expect(handler({ slug: SLUG, fileId: FILE, attempt: 'nope' })).resolves.toBe('bad-input');
    expect(s3.calls()).toHaveLength(0);
  });
});

describe('POST /transfers/{id}/files/{fileId}/complete', () => {
  const completion = groupHandler('completion');
  const call = () =>
    completion(
      apiEvent('POST /api/transfers/{id}/files/{fileId}/complete', {
        rawPath: `/api/transfers/${SLUG}/files/${FILE}/complete`,
        pathParameters: { id: SLUG, fileId: FILE },
        headers: { 'x-upload-token': TOKEN },
      }),
    );

  it('claims a file over 100 MiB, starts the job and answers 202 completing with Retry-After, without S3', async () => {
    given({ file: { status: 'pending', completeAttempt: undefined, completeLeaseUntil: undefined } });
    const res = await call();
    expect(res.statusCode).toBe(202);
    expect(jsonOf(res)).toEqual({ fileId: FILE, size: SIZE, state: 'completing', retryAfterSeconds: 2 });
    expect(res.headers?.['retry-after']).toBe('2');
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(fileUpdates().filter(isClaim)).toHaveLength(1);
    const invoke = lambda.commandCalls(InvokeCommand);
    expect(invoke).toHaveLength(1);
    expect(invoke[0]!.args[0].input).toMatchObject({ FunctionName: 'fn-complete', InvocationType: 'Event' });
    const payload = JSON.parse(Buffer.from(invoke[0]!.args[0].input.Payload as Uint8Array).toString('utf8'));
    expect(payload).toMatchObject({ slug: SLUG, fileId: FILE });
  });

  it('asked again while its job runs: the same 202, no second job', async () => {
    given({});
    const res = await call();
    expect(res.statusCode).toBe(202);
    expect(jsonOf(res)).toMatchObject({ state: 'completing' });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('asked again after its job died (lease run out): claimed anew and the job started again', async () => {
    given({ file: { completeLeaseUntil: now - 1 } });
    const res = await call();
    expect(res.statusCode).toBe(202);
    expect(fileUpdates().filter(isClaim)).toHaveLength(1);
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(1);
  });

  it('a job that cannot be started is no 5xx: the claim gives its lease up for the next call', async () => {
    given({ file: { status: 'pending', completeAttempt: undefined, completeLeaseUntil: undefined } });
    lambda.on(InvokeCommand).rejects(serviceError('TooManyRequestsException', 'Rate exceeded', 429));
    const res = await call();
    expect(res.statusCode).toBe(202);
    expect(fileUpdates().filter(isExpire)).toHaveLength(1);
  });

  it('a file of 100 MiB or less is put together inline: 200 complete', async () => {
    const small = 100 * MiB;
    given({
      file: {
        status: 'pending',
        size: small,
        partCount: 20,
        completeAttempt: undefined,
        completeLeaseUntil: undefined,
      },
    });
    ddbMock
      .on(QueryCommand)
      .callsFake(async (input: { ExpressionAttributeValues: Record<string, string> }) =>
        String(input.ExpressionAttributeValues[':p']).startsWith(keys.partPrefix(FILE))
          ? { Items: partItems.slice(0, 20) }
          : { Items: [] },
      );
    s3.on(HeadObjectCommand).resolves({ ContentLength: small });
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toEqual({ fileId: FILE, size: small, state: 'complete' });
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(1);
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
  });

  it('once uploaded: 200 complete, whatever is asked how often', async () => {
    given({ file: { status: 'uploaded', scanStatus: 'clean' } });
    for (let i = 0; i < 2; i += 1) {
      const res = await call();
      expect(res.statusCode).toBe(200);
      expect(jsonOf(res)).toMatchObject({ state: 'complete' });
    }
    expect(s3.calls()).toHaveLength(0);
  });
});
