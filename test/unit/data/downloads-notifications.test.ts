import { beforeEach, describe, expect, it } from 'vitest';
import {
  BatchWriteCommand,
  DeleteCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { TABLE, conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  RECIPIENT_SET_CAP,
  listDownloads,
  recipientToken,
  recordDownload,
  type DownloadEvent,
} from '../../../functions/data/download-events';
import {
  NOTIFICATION_TTL_SECONDS,
  countUnread,
  deleteNotification,
  deleteNotifications,
  eventIdAt,
  listNotifications,
  markRead,
} from '../../../functions/data/notifications';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const AT = Date.UTC(2026, 2, 14, 10);
const d: DownloadEvent = {
  at: AT,
  id: eventIdAt(AT),
  countryCode: 'DE',
  countryName: 'Germany',
  fileName: 'a.pdf',
  recipientEmail: 'R@example.com',
  origin: 'file',
};

describe('recordDownload', () => {
  it("counts an anonymous transfer's download on the download item and the transfer only", async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await recordDownload({ slug: 's1' }, d);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(2);
    expect(items[1]!.Update).toMatchObject({
      Key: keys.transfer('s1'),
      UpdateExpression: 'ADD totalDownloads :one REMOVE gsi4pk, gsi4sk',
      ConditionExpression: 'attribute_exists(pk)',
    });
  });

  it("a signed-in sender's download adds the notification, the log row and the day and month counters in the same transaction", async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await recordDownload({ slug: 's1', senderId: 'u1' }, d);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(6);
    expect(items[2]!.Put!.Item).toMatchObject({
      ...keys.notification('u1', AT, d.id),
      read: false,
      ttl: AT / 1000 + NOTIFICATION_TTL_SECONDS,
    });
    expect(items[3]!.Put!.Item).toMatchObject(keys.downloadLog('u1', AT, d.id));
    const day = items[4]!.Update!;
    expect(day.Key).toEqual(keys.dayStats('u1', '2026-03-14'));
    expect(day.ConditionExpression).toBe('attribute_not_exists(recipients) OR size(recipients) < :cap');
    expect(day.ExpressionAttributeNames).toMatchObject({ '#c': 'c#DE', '#t': 't#s1' });
    expect(day.ExpressionAttributeValues).toMatchObject({
      ':r': new Set([recipientToken('r@example.com')]),
      ':cap': RECIPIENT_SET_CAP,
    });
    expect(items[5]!.Update).toMatchObject({
      Key: keys.monthStats('u1', '2026-03'),
      ExpressionAttributeNames: { '#d': 'd#14' },
    });
  });

  it('a full recipient set: the download is counted again without adding the recipient to that set only', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ok', 'ok', 'ok', 'ok', 'ok', 'ConditionalCheckFailed']))
      .resolves({});
    await recordDownload({ slug: 's1', senderId: 'u1' }, d);
    const retry = ddbMock.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems!;
    expect(retry[4]!.Update!.ExpressionAttributeValues).toHaveProperty(':r');
    expect(retry[5]!.Update!.ExpressionAttributeValues).not.toHaveProperty(':r');
    expect(retry[5]!.Update!.ConditionExpression).toBeUndefined();
  });

  it("a gone transfer (its condition failed) and throttling are the caller's errors", async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed', 'ok', 'ok', 'ok', 'ok']))
      .rejectsOnce(throttled());
    await expect(recordDownload({ slug: 's1', senderId: 'u1' }, d)).rejects.toMatchObject({
      name: 'TransactionCanceledException',
    });
    await expect(recordDownload({ slug: 's1', senderId: 'u1' }, d)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it("lists a transfer's downloads newest first", async () => {
    ddbMock
      .on(QueryCommand)
      .resolves({ Items: [{ dlDate: 2, country_name: 'Germany', fileName: 'a', dlOrigin: 'zip' }] });
    expect(await listDownloads('s1', 5)).toEqual([
      { dlDate: 2, country_name: 'Germany', countryCode: 'XX', fileName: 'a', dlOrigin: 'zip' },
    ]);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      ScanIndexForward: false,
      Limit: 5,
      ExpressionAttributeValues: { ':pk': 'TRANSFER#s1' },
    });
  });
});

describe('notifications', () => {
  const NOW = AT + 1000;

  it('the list leaves out items past their ttl', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { _id: 'a', slug: 's', dlDate: 1, ttl: NOW / 1000 + 5 },
        { _id: 'b', slug: 's', dlDate: 0, ttl: NOW / 1000 - 5 },
      ],
    });
    expect((await listNotifications('u1', 10, NOW)).map((n) => n._id)).toEqual(['a']);
  });

  it('the unread count is one bounded COUNT query that excludes items older than the retention', async () => {
    ddbMock.on(QueryCommand).resolves({ Count: 7 });
    expect(await countUnread('u1', 5, NOW)).toBe(5);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      Select: 'COUNT',
      Limit: 5,
      ExpressionAttributeValues: {
        ':since': keys.unreadNotification('u1', NOW - NOTIFICATION_TTL_SECONDS * 1000, '').gsi1sk,
      },
    });
  });

  it('marking read finds the item from the time in its id; a foreign or expired id answers false', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await markRead('u1', d.id, NOW)).toBe(true);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.notification('u1', AT, d.id),
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#ttl) OR #ttl > :now)',
    });
    expect(await markRead('u1', d.id, NOW)).toBe(false);
    expect(await markRead('u1', 'not-a-uuid', NOW)).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(2);
  });

  it('deleting one answers false when it is not there', async () => {
    ddbMock.on(DeleteCommand).rejects(conditionFailed());
    expect(await deleteNotification('u1', d.id)).toBe(false);
  });

  it('deleting the read ones pages through the filtered keys and deletes them in batches of 25, retrying unprocessed keys', async () => {
    const page = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({ pk: 'USER#u1', sk: `NOTIFY#${from + i}`, other: 'dropped' }));
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: page(30, 0), LastEvaluatedKey: { pk: 'USER#u1', sk: 'NOTIFY#29' } })
      .resolvesOnce({ Items: page(2, 30) });
    ddbMock
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [{ DeleteRequest: { Key: { pk: 'USER#u1', sk: 'NOTIFY#0' } } }] } })
      .resolves({});
    expect(await deleteNotifications('u1', 'read')).toBe(32);
    const q = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(q).toMatchObject({ FilterExpression: '#r = :true', ProjectionExpression: 'pk, sk' });
    const batches = ddbMock.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![TABLE]!);
    expect(batches.map((b) => b.length).sort()).toEqual([1, 2, 25, 5].sort());
    expect(batches[0]![0]!.DeleteRequest!.Key).toEqual({ pk: 'USER#u1', sk: 'NOTIFY#0' });
  });
});
