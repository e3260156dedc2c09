import { beforeEach, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  CLAIM_MS,
  DELIVERY_TTL_SECONDS,
  MAX_LOGGED_ATTEMPTS,
  claimDelivery,
  createEndpoint,
  deleteEndpoint,
  finishAttempt,
  getDelivery,
  listDeliveries,
  listDue,
  recordEvent,
  saveEndpoint,
  type DeliveryRecord,
  type EndpointRecord,
} from '../../../functions/data/webhooks';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;
const endpoint: EndpointRecord = {
  userId: 'u1',
  id: 'we_1',
  url: 'https://hooks.example.com/x',
  description: '',
  events: ['transfer.sent'] as never,
  enabled: true,
  createdAt: NOW,
  secret: 'whsec_0123456789',
};
const delivery: DeliveryRecord = {
  id: 'dl_1',
  userId: 'u1',
  endpointId: 'we_1',
  eventId: 'ev_1',
  eventType: 'transfer.sent' as never,
  status: 'pending',
  createdAt: NOW,
  deadline: NOW + 86_400_000,
  attempts: [],
  nextAttemptAt: NOW,
};

describe('endpoints', () => {
  it('a new endpoint is counted under the maximum in the same transaction; false when full', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    expect(await createEndpoint(endpoint, 10)).toBe(true);
    expect(await createEndpoint(endpoint, 10)).toBe(false);
    const [count, put] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(count!.Update).toMatchObject({
      Key: keys.webhookSettings('u1'),
      ConditionExpression: 'attribute_not_exists(endpointCount) OR endpointCount < :max',
      ExpressionAttributeValues: { ':max': 10 },
    });
    expect(put!.Put).toMatchObject({
      Item: { ...keys.webhookEndpoint('u1', 'we_1'), url: endpoint.url },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it("saving a gone endpoint and deleting a missing one answer false; throttling is the caller's", async () => {
    ddbMock.on(PutCommand).rejects(conditionFailed());
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(throttled());
    expect(await saveEndpoint(endpoint)).toBe(false);
    expect(await deleteEndpoint('u1', 'we_1')).toBe(false);
    await expect(deleteEndpoint('u1', 'we_1')).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
  });
});

describe('the outbox', () => {
  it('an event and its deliveries are written together, each delivery once, due in the WHDUE index', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await recordEvent({ id: 'ev_1', type: 'transfer.sent' as never, userId: 'u1', createdAt: NOW, body: '{}' }, [
      delivery,
    ]);
    const [event, dl] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(event!.Put!.Item).toMatchObject({ ...keys.webhookEvent('ev_1'), ttl: NOW / 1000 + DELIVERY_TTL_SECONDS });
    expect(dl!.Put).toMatchObject({
      Item: { ...keys.webhookDelivery('dl_1'), ...keys.webhookDueIndex(NOW, 'dl_1') },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('no deliveries, no write', async () => {
    await recordEvent({ id: 'ev_1', type: 'transfer.sent' as never, userId: 'u1', createdAt: NOW, body: '{}' }, []);
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('an expired delivery reads as absent, and leaves the log', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { ...delivery, ttl: NOW / 1000 - 1 } });
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { ...delivery, ttl: NOW / 1000 + 1 },
        { ...delivery, id: 'old', ttl: NOW / 1000 - 1 },
      ],
    });
    expect(await getDelivery('dl_1', NOW)).toBeUndefined();
    expect((await listDeliveries('we_1', 20, NOW)).map((x) => x.id)).toEqual(['dl_1']);
  });

  it('due deliveries are read from the WHDUE index up to now', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [{ id: 'dl_1' }, { id: 'dl_2' }] });
    expect(await listDue(NOW, 50)).toEqual(['dl_1', 'dl_2']);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi2',
      Limit: 50,
      ExpressionAttributeValues: { ':pk': 'WHDUE' },
    });
  });

  it('a due delivery is claimed by one worker, which moves its next attempt CLAIM_MS ahead', async () => {
    ddbMock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { ...delivery, nextAttemptAt: NOW + CLAIM_MS } })
      .rejectsOnce(conditionFailed());
    expect(await claimDelivery('dl_1', NOW)).toMatchObject({ id: 'dl_1', nextAttemptAt: NOW + CLAIM_MS });
    expect(await claimDelivery('dl_1', NOW)).toBeUndefined();
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: '#s = :pending AND nextAttemptAt <= :now',
      ExpressionAttributeValues: {
        ':until': NOW + CLAIM_MS,
        ':due': keys.webhookDueIndex(NOW + CLAIM_MS, 'dl_1').gsi2sk,
        ':now': NOW,
      },
    });
  });

  it("an attempt's outcome keeps the newest attempts only; a final one leaves the due index", async () => {
    const many = Array.from({ length: MAX_LOGGED_ATTEMPTS }, (_, i) => ({ at: i, durationMs: 1 }));
    ddbMock.on(UpdateCommand).callsFake((input: { ExpressionAttributeValues: Record<string, unknown> }) => ({
      Attributes: {
        ...delivery,
        status: input.ExpressionAttributeValues[':s'],
        attempts: input.ExpressionAttributeValues[':a'],
      },
    }));
    const done = await finishAttempt(
      { ...delivery, attempts: many },
      { at: 99, status: 200, durationMs: 5 },
      { status: 'delivered' },
    );
    expect(done.status).toBe('delivered');
    expect(done.attempts).toHaveLength(MAX_LOGGED_ATTEMPTS);
    expect(done.attempts.at(-1)).toEqual({ at: 99, status: 200, durationMs: 5 });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.UpdateExpression).toBe(
      'SET #s = :s, attempts = :a REMOVE nextAttemptAt, gsi2pk, gsi2sk',
    );
    await finishAttempt(delivery, { at: 1, durationMs: 1 }, { status: 'pending', nextAttemptAt: NOW + 5 });
    expect(ddbMock.commandCalls(UpdateCommand)[1]!.args[0].input.ExpressionAttributeValues).toMatchObject({
      ':n': NOW + 5,
      ':dsk': keys.webhookDueIndex(NOW + 5, 'dl_1').gsi2sk,
    });
  });
});
