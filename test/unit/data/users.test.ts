import { beforeEach, describe, expect, it } from 'vitest';
import { BatchGetCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TABLE, conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  createProfile,
  getProfile,
  guestOwner,
  languagesOf,
  releaseSend,
  reserveSend,
  updateProfile,
  type UserProfile,
} from '../../../functions/data/users';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const profile = { userId: 'u1', email: 'a@example.com', role: 'free' } as UserProfile;

describe('getProfile', () => {
  it('reads USER#<id>/PROFILE consistently', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { pk: 'USER#u1', sk: 'PROFILE', userId: 'u1', email: 'a@example.com' } });
    expect(await getProfile('u1')).toMatchObject({ userId: 'u1', email: 'a@example.com' });
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'USER#u1', sk: 'PROFILE' },
      ConsistentRead: true,
    });
  });

  it('treats a missing, ttl-expired or email-less item as no profile', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({})
      .resolvesOnce({ Item: { userId: 'u1', email: 'a@example.com', ttl: Math.floor(Date.now() / 1000) - 1 } })
      .resolvesOnce({ Item: { userId: 'u1' } });
    for (let i = 0; i < 3; i += 1) expect(await getProfile('u1')).toBeUndefined();
  });
});

describe('createProfile', () => {
  it('claims the address and writes the profile in one transaction, both only if new', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await createProfile(profile)).toBe(true);
    const [claim, item] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(claim!.Put).toMatchObject({
      Item: { pk: 'EMAIL#a@example.com', sk: 'USER', userId: 'u1' },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(item!.Put).toMatchObject({
      Item: { pk: 'USER#u1', sk: 'PROFILE', storageUsed: 0, loginCount: 0 },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('answers false when the address is taken, and lets throttling through', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(throttled());
    expect(await createProfile(profile)).toBe(false);
    await expect(createProfile(profile)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });
});

describe('reserveSend', () => {
  it('writes "used + bytes <= limit" as "used <= limit - bytes" on the account, and counts the month', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await reserveSend('u1', 300, 1000, { key: '2026-01', limit: 10 })).toBeNull();
    const [storage, month] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(storage!.Update).toMatchObject({
      Key: { pk: 'USER#u1', sk: 'PROFILE' },
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(storageUsed) OR storageUsed <= :max)',
      ExpressionAttributeValues: { ':b': 300, ':max': 700 },
    });
    expect(month!.Update).toMatchObject({
      Key: { pk: 'USER#u1', sk: 'MONTH#2026-01' },
      ConditionExpression: 'attribute_not_exists(#c) OR #c < :limit',
      ExpressionAttributeValues: { ':limit': 10 },
    });
  });

  it('a guest reserves on GUEST#<address>/STORAGE, which need not exist yet; no month limit means no condition', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await reserveSend(guestOwner('g@example.com'), 1, 10, { key: '2026-01', limit: null });
    const [storage, month] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(storage!.Update).toMatchObject({
      Key: { pk: 'GUEST#g@example.com', sk: 'STORAGE' },
      ConditionExpression: '(attribute_not_exists(storageUsed) OR storageUsed <= :max)',
    });
    expect(month!.Update!.ConditionExpression).toBeUndefined();
  });

  it('names which limit refused the send', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed']))
      .rejectsOnce(transactionCancelled(['TransactionConflict', 'ok']));
    const month = { key: '2026-01', limit: 3 };
    expect(await reserveSend('u1', 1, 10, month)).toBe('storage_full');
    expect(await reserveSend('u1', 1, 10, month)).toBe('over_transfer_limit');
    await expect(reserveSend('u1', 1, 10, month)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
  });

  it('a send larger than the whole limit is refused without a write', async () => {
    expect(await reserveSend('u1', 11, 10, null)).toBe('storage_full');
    expect(ddbMock.calls()).toHaveLength(0);
  });
});

describe('releaseSend', () => {
  it('gives the bytes and the month back; a month already at zero is not an error', async () => {
    ddbMock.on(UpdateCommand, { Key: { pk: 'USER#u1', sk: 'PROFILE' } }).resolves({});
    ddbMock.on(UpdateCommand, { Key: { pk: 'USER#u1', sk: 'MONTH#2026-01' } }).rejects(conditionFailed());
    await releaseSend('u1', 40, '2026-01');
    const [bytes, month] = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(bytes!.ExpressionAttributeValues).toEqual({ ':b': -40 });
    expect(month!.ConditionExpression).toBe('attribute_exists(pk) AND #c > :zero');
  });
});

describe('updateProfile', () => {
  it('sets given fields, removes emptied ones, and writes nothing for an empty edit', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    await updateProfile('u1', {});
    expect(ddbMock.calls()).toHaveLength(0);
    await updateProfile('u1', { fullName: 'Ann', company: '' });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression: 'SET #fullName = :fullName REMOVE #company',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':fullName': 'Ann' },
    });
  });
});

describe('languagesOf', () => {
  it('finds accounts by address, then their languages, retrying unprocessed keys', async () => {
    ddbMock
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [TABLE]: [{ pk: 'EMAIL#a@example.com', userId: 'u1' }] },
        UnprocessedKeys: { [TABLE]: { Keys: [{ pk: 'EMAIL#b@example.com', sk: 'USER' }] } },
      })
      .resolvesOnce({ Responses: { [TABLE]: [{ pk: 'EMAIL#b@example.com', userId: 'u2' }] } })
      .resolvesOnce({
        Responses: {
          [TABLE]: [
            { userId: 'u1', lang: 'de' },
            { userId: 'u2', lang: '' },
          ],
        },
      });
    const langs = await languagesOf(['a@example.com', 'b@example.com', 'a@example.com', 'c@example.com']);
    expect([...langs]).toEqual([['a@example.com', 'de']]);
    const calls = ddbMock.commandCalls(BatchGetCommand).map((c) => c.args[0].input.RequestItems![TABLE]!.Keys);
    expect(calls[0]).toHaveLength(3);
    expect(calls[1]).toEqual([{ pk: 'EMAIL#b@example.com', sk: 'USER' }]);
    expect(calls[2]).toEqual([
      { pk: 'USER#u1', sk: 'PROFILE' },
      { pk: 'USER#u2', sk: 'PROFILE' },
    ]);
  });
});
