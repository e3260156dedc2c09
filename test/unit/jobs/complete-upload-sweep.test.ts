/**
 * The complete-upload job's schedule: claims whose lease ran out are claimed anew and started,
 * each in a run of its own (the Lambda Invoke of the job itself); a claim restarted
 * STALE_MAX_RESTARTS times is left to the sender's next complete call; a cancelled transfer's
 * object is deleted; a stray queue entry is dropped. DynamoDB, S3 and Lambda are mocked.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AbortMultipartUploadCommand, DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { conditionFailed, ddbMock, useUnitEnv } from '../../helpers/aws-mock';
import { keys } from '../../../functions/data/keys';
import { handler as job } from '../../../functions/jobs/complete-upload';
import { STALE_MAX_RESTARTS } from '../../../functions/services/completion-sweep';

useUnitEnv({ MALWARE_SCANNER: 'guardduty' });

const s3 = mockClient(S3Client);
const lambda = mockClient(LambdaClient);
const SLUG = 'Swp0001';
const FILE = 'Fil0000001';
const SCHEDULED = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };
const context = { invokedFunctionArn: 'arn:aws:lambda:ap-east-1:123456789012:function:job-complete-upload' };

function transfer(status: string) {
  return { ...keys.transfer(SLUG), slug: SLUG, status, region: 'hongkong', anon: false };
}

function file(extra: Record<string, unknown> = {}) {
  return {
    ...keys.transferFile(SLUG, FILE),
    slug: SLUG,
    fileId: FILE,
    key: `t/${SLUG}/${FILE}`,
    size: 200 * 1024 * 1024,
    mode: 'multipart',
    uploadId: 'up-1',
    status: 'completing',
    completeAttempt: '0f8e2c9a-3b1d-4e6f-8a7b-5c4d3e2f1a0b',
    completeLeaseUntil: 0,
    ...extra,
  };
}

function given(t: Record<string, unknown>, f: Record<string, unknown>) {
  ddbMock.on(QueryCommand, { IndexName: 'gsi2' }).resolves({ Items: [{ pk: `TRANSFER#${SLUG}`, sk: `FILE#${FILE}` }] });
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: t });
  ddbMock.on(GetCommand, { Key: keys.transferFile(SLUG, FILE) }).resolves({ Item: f });
}

const updates = () => ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);

beforeEach(() => {
  ddbMock.reset();
  s3.reset();
  lambda.reset();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(UpdateCommand).resolves({ Attributes: { runs: 1, lastRunAt: 1 } });
  ddbMock.on(PutCommand).resolves({});
  lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
});

describe("the complete-upload job's schedule", () => {
  it('looks only at claims whose lease ran out, and starts each again under a new claim in a run of its own', async () => {
    given(transfer('uploading'), file());
    expect(await job(SCHEDULED, context as never)).toEqual({ restarted: 1, dropped: 0, cleaned: 0 });
    const query = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query.ExpressionAttributeValues).toMatchObject({ ':p': 'COMPLETING' });
    expect(
      String(query.ExpressionAttributeValues?.[':upTo']) < keys.completingIndex(Date.now(), SLUG, FILE).gsi2sk,
    ).toBe(true);
    const claim = updates().find((u) => String(u.UpdateExpression).includes('ADD completeRestarts'))!;
    expect(claim.ExpressionAttributeValues).toMatchObject({ ':max': STALE_MAX_RESTARTS, ':gpk': 'COMPLETING' });
    const invoke = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(invoke).toMatchObject({ FunctionName: context.invokedFunctionArn, InvocationType: 'Event' });
    const payload = JSON.parse(Buffer.from(invoke.Payload as Uint8Array).toString()) as Record<string, string>;
    expect(payload).toEqual({ slug: SLUG, fileId: FILE, attempt: claim.ExpressionAttributeValues?.[':a'] });
    expect(payload.attempt).not.toBe(file().completeAttempt);
  });

  it('leaves a claim whose restarts are spent to the next complete call, out of its queue', async () => {
    given(transfer('uploading'), file({ completeRestarts: STALE_MAX_RESTARTS }));
    ddbMock
      .on(UpdateCommand)
      .callsFake(async (input: { UpdateExpression?: string }) =>
        input.UpdateExpression?.includes('ADD completeRestarts') ? Promise.reject(conditionFailed()) : {},
      );
    expect(await job(SCHEDULED, context as never)).toEqual({ restarted: 0, dropped: 1, cleaned: 0 });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(updates().some((u) => u.UpdateExpression === 'REMOVE gsi2pk, gsi2sk')).toBe(true);
  });

  it("deletes what a cancelled transfer's dead run put together, and starts nothing", async () => {
    given(transfer('cancelled'), file());
    s3.on(DeleteObjectCommand).resolves({});
    s3.on(AbortMultipartUploadCommand).resolves({});
    expect(await job(SCHEDULED, context as never)).toEqual({ restarted: 0, dropped: 0, cleaned: 1 });
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toMatchObject({ Key: `t/${SLUG}/${FILE}` });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
  });

  it('drops a queue entry of a file that finished meanwhile', async () => {
    given(transfer('ready'), file({ status: 'uploaded' }));
    expect(await job(SCHEDULED, context as never)).toEqual({ restarted: 0, dropped: 1, cleaned: 0 });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
  });

  it('gives the new claim up when its run cannot be started, so the next schedule tries again', async () => {
    given(transfer('uploading'), file());
    lambda.on(InvokeCommand).rejects(new Error('throttled'));
    expect(await job(SCHEDULED, context as never)).toEqual({ restarted: 0, dropped: 0, cleaned: 0 });
    const expire = updates().find((u) => u.UpdateExpression?.startsWith('SET completeLeaseUntil = :z'));
    expect(expire?.ExpressionAttributeValues).toMatchObject({ ':z': 0 });
  });
});
