/**
 * The webhook delivery job (functions/jobs/webhook-deliver.ts) with the table's and SQS's clients
 * mocked; the receiver is a real HTTP server on loopback (test/helpers/webhook-receiver.ts),
 * which the worker may call beside the emulators (a DynamoDB endpoint configured).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { conditionFailed, ddbMock, TABLE, throttled, useUnitEnv } from '../../helpers/aws-mock';
import { startReceiver } from '../../helpers/webhook-receiver';
import { keys } from '../../../functions/data/keys';
import { ENV } from '../../../functions/lib/env-names';
import { WEBHOOK_HEADERS } from '../../../functions/domain/webhooks-api';
import { handler } from '../../../functions/jobs/webhook-deliver';

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/000000000000/unit-webhooks';
useUnitEnv({ [ENV.dynamodbEndpoint]: 'http://127.0.0.1:1', [ENV.webhookQueueUrl]: QUEUE });

const sqs = mockClient(SQSClient);
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const now = Date.now();
const BODY = JSON.stringify({
  id: 'ev-1',
  type: 'transfer.downloaded',
  createdAt: new Date(now).toISOString(),
  data: { transferId: 'Abc1234' },
});

const delivery = (id: string) => ({
  ...keys.webhookDelivery(id),
  id,
  userId: 'u1',
  endpointId: 'ep-1',
  eventId: 'ev-1',
  eventType: 'transfer.downloaded',
  status: 'pending',
  createdAt: now - 1000,
  deadline: now + 3 * 86_400_000,
  attempts: [],
  nextAttemptAt: now + 60_000,
});
const sqsEvent = (...ids: string[]) =>
  ({ Records: ids.map((id, i) => ({ messageId: `msg-${i}`, body: JSON.stringify({ deliveryId: id }) })) }) as never;
const updatesOf = (id: string) =>
  ddbMock
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((i) => (i.Key as { pk?: string }).pk === keys.webhookDelivery(id).pk);

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

beforeEach(() => {
  ddbMock.reset();
  sqs.reset();
  receiver.received.length = 0;
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(QueryCommand).resolves({ Items: [] });
  ddbMock.on(GetCommand, { Key: keys.webhookEndpoint('u1', 'ep-1') }).resolves({
    Item: {
      ...keys.webhookEndpoint('u1', 'ep-1'),
      userId: 'u1',
      id: 'ep-1',
      url: receiver.url,
      events: ['transfer.downloaded'],
      enabled: true,
      createdAt: now - 86_400_000,
      secret: 'whsec_unit',
    },
  });
  ddbMock.on(GetCommand, { Key: keys.webhookEvent('ev-1') }).resolves({
    Item: {
      ...keys.webhookEvent('ev-1'),
      id: 'ev-1',
      type: 'transfer.downloaded',
      userId: 'u1',
      createdAt: now,
      body: BODY,
    },
  });
  // The claim (conditioned) answers the claimed delivery; finishing an attempt answers what it wrote.
  ddbMock
    .on(UpdateCommand, { ExpressionAttributeNames: { '#s': 'status' }, ReturnValues: 'ALL_NEW' })
    .callsFake(
      async (input: {
        Key: { pk: string };
        ExpressionAttributeValues: Record<string, unknown>;
        ConditionExpression?: string;
      }) =>
        input.ConditionExpression
          ? { Attributes: delivery(input.Key.pk.replace('WHDELIVERY#', '')) }
          : {
              Attributes: {
                ...delivery(input.Key.pk.replace('WHDELIVERY#', '')),
                status: input.ExpressionAttributeValues[':s'],
                attempts: input.ExpressionAttributeValues[':a'],
              },
            },
    );
  ddbMock
    .on(UpdateCommand, { Key: keys.jobRun('webhook-deliver') })
    .resolves({ Attributes: { runs: 1, lastRunAt: now } });
  sqs
    .on(SendMessageBatchCommand)
    .resolves({ Successful: [{ Id: '0', MessageId: 'm', MD5OfMessageBody: 'x' }], Failed: [] });
});

describe('webhook delivery job', () => {
  it('an SQS message: claims the delivery, posts the signed event to the endpoint, and records it delivered', async () => {
    expect(await handler(sqsEvent('d-1'))).toEqual({ batchItemFailures: [] });

    const [claim, finish] = updatesOf('d-1');
    expect(claim).toMatchObject({
      TableName: TABLE,
      ConditionExpression: '#s = :pending AND nextAttemptAt <= :now',
      ReturnValues: 'ALL_NEW',
    });
    expect(finish).toMatchObject({
      UpdateExpression: 'SET #s = :s, attempts = :a REMOVE nextAttemptAt, gsi2pk, gsi2sk',
      ExpressionAttributeValues: { ':s': 'delivered' },
    });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toBe(BODY);
    expect(receiver.received[0]!.headers[WEBHOOK_HEADERS.id.toLowerCase()]).toBe('ev-1');
    expect(receiver.received[0]!.headers[WEBHOOK_HEADERS.signature.toLowerCase()]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/u);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('a receiver that refuses: the attempt is logged, the delivery stays pending, and its retry goes back on the queue with a delay', async () => {
    receiver.answerNext(503);
    expect(await handler(sqsEvent('d-2'))).toEqual({ batchItemFailures: [] });

    const finish = updatesOf('d-2')[1]!;
    expect(finish.UpdateExpression).toBe(
      'SET #s = :s, attempts = :a, nextAttemptAt = :n, gsi2pk = :dpk, gsi2sk = :dsk',
    );
    expect(finish.ExpressionAttributeValues).toMatchObject({ ':s': 'pending', ':dpk': keys.webhookDuePartition });
    const batch = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input;
    expect(batch.QueueUrl).toBe(QUEUE);
    expect(batch.Entries).toHaveLength(1);
    expect(JSON.parse(batch.Entries![0]!.MessageBody!)).toEqual({ deliveryId: 'd-2' });
    expect(batch.Entries![0]!.DelaySeconds).toBeGreaterThan(0);
  });

  it("a throttled claim fails only that message (SQS redelivers it); the batch's other messages are delivered", async () => {
    ddbMock
      .on(UpdateCommand, {
        ConditionExpression: '#s = :pending AND nextAttemptAt <= :now',
        Key: keys.webhookDelivery('d-3'),
      })
      .rejects(throttled());
    expect(await handler(sqsEvent('d-3', 'd-4'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-0' }] });
    expect(receiver.received).toHaveLength(1);
    expect(updatesOf('d-4')[1]!.ExpressionAttributeValues).toMatchObject({ ':s': 'delivered' });
  });

  it('a retry SQS will not take (throttled SendMessageBatch) fails the message, so SQS redelivers it rather than lose the retry', async () => {
    receiver.answerNext(500);
    sqs
      .on(SendMessageBatchCommand)
      .rejects(
        Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }),
      );
    expect(await handler(sqsEvent('d-5'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-0' }] });
    // the attempt itself was recorded: the delivery is pending in the outbox, which the schedule sweeps too
    expect(updatesOf('d-5')[1]!.ExpressionAttributeValues).toMatchObject({ ':s': 'pending' });
  });

  it('a delivery another worker holds (failed claim) is not sent twice; the message is done', async () => {
    ddbMock
      .on(UpdateCommand, {
        ConditionExpression: '#s = :pending AND nextAttemptAt <= :now',
        Key: keys.webhookDelivery('d-6'),
      })
      .rejects(conditionFailed());
    ddbMock
      .on(GetCommand, { Key: keys.webhookDelivery('d-6') })
      .resolves({ Item: { ...delivery('d-6'), status: 'delivered' } });
    expect(await handler(sqsEvent('d-6'))).toEqual({ batchItemFailures: [] });
    expect(receiver.received).toHaveLength(0);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('the schedule: sweeps the due outbox, delivers each, and records the run; a throttled one is left due for the next sweep', async () => {
    ddbMock.on(QueryCommand, { IndexName: 'gsi2' }).resolves({ Items: [{ id: 'd-7' }, { id: 'd-8' }] });
    ddbMock
      .on(UpdateCommand, {
        ConditionExpression: '#s = :pending AND nextAttemptAt <= :now',
        Key: keys.webhookDelivery('d-8'),
      })
      .rejects(throttled());
    const result = await handler({ 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} } as never);
    expect(result).toEqual({ due: 2, delivered: 1, retrying: 0, failed: 0 });
    const due = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(due).toMatchObject({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :upTo',
      ExpressionAttributeValues: { ':pk': keys.webhookDuePartition },
    });
    expect(updatesOf('d-8')).toHaveLength(1);
    expect(
      ddbMock
        .commandCalls(UpdateCommand)
        .some((c) => (c.args[0].input.Key as { pk: string }).pk === keys.jobRun('webhook-deliver').pk),
    ).toBe(true);
  });
});
