import { beforeEach, describe, expect, it } from 'vitest';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  deleteContact,
  editContactFields,
  listContactRecords,
  moveContact,
  putNewContact,
  reserveContactSlots,
  touchContactFromSend,
} from '../../../functions/data/contacts';
import { MAX_CONTACTS } from '../../../functions/domain/contacts-api';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;

describe('reserveContactSlots', () => {
  it('reserves what is left under MAX_CONTACTS with a condition on the count it read', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { count: MAX_CONTACTS - 3 } });
    ddbMock.on(UpdateCommand).resolves({});
    expect(await reserveContactSlots('u1', 10)).toBe(3);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.contactStats('u1'),
      ConditionExpression: 'attribute_not_exists(#c) OR #c <= :before',
      ExpressionAttributeValues: { ':g': 3, ':before': MAX_CONTACTS - 3 },
    });
  });

  it('reads again after another writer moved the count; a full account gets 0 without a write', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { count: 0 } })
      .resolvesOnce({ Item: { count: MAX_CONTACTS } });
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await reserveContactSlots('u1', 2)).toBe(0);
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(2);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
  });
});

describe('putNewContact and touchContactFromSend', () => {
  it('a new contact is put only if the address is not one yet', async () => {
    ddbMock.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await putNewContact('u1', { email: ' Ann@Example.com ', name: 'Ann' }, 'manual', NOW)).toBe(true);
    expect(await putNewContact('u1', { email: 'ann@example.com' }, 'manual', NOW)).toBe(false);
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(put.Item).toMatchObject({ email: 'Ann@Example.com', name: 'Ann', source: 'manual', createdAt: NOW });
  });

  it('a send fills only missing fields of an existing contact', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await touchContactFromSend('u1', { email: 'a@example.com', name: 'A', company: 'C' }, NOW)).toBe(true);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.UpdateExpression).toBe(
      'SET lastUsedAt = :now, #n = if_not_exists(#n, :n), company = if_not_exists(company, :c)',
    );
    expect(await touchContactFromSend('u1', { email: 'a@example.com' }, NOW)).toBe(false);
  });
});

describe('editContactFields', () => {
  it('sets and removes fields and answers the stored contact; undefined when there is none', async () => {
    ddbMock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { email: 'a@example.com', name: 'B', source: 'manual', createdAt: 1 } })
      .rejectsOnce(conditionFailed());
    expect(await editContactFields('u1', 'a@example.com', { name: 'B', company: '' }, NOW)).toMatchObject({
      email: 'a@example.com',
      name: 'B',
    });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression: 'SET editedAt = :now, #n = :n REMOVE company',
      ReturnValues: 'ALL_NEW',
    });
    expect(await editContactFields('u1', 'a@example.com', { name: 'B' }, NOW)).toBeUndefined();
  });
});

describe('moveContact', () => {
  const to = { email: 'b@example.com', source: 'manual' as const, createdAt: 1, lastUsedAt: null };
  it('maps the cancelled item to missing (old gone) or exists (new taken)', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed']))
      .rejectsOnce(transactionCancelled(['TransactionConflict', 'ok']));
    expect(await moveContact('u1', 'a@example.com', to, NOW)).toBe('moved');
    expect(await moveContact('u1', 'a@example.com', to, NOW)).toBe('missing');
    expect(await moveContact('u1', 'a@example.com', to, NOW)).toBe('exists');
    await expect(moveContact('u1', 'a@example.com', to, NOW)).rejects.toMatchObject({
      name: 'TransactionCanceledException',
    });
    const [del, put] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(del!.Delete!.Key).toEqual(keys.contact('u1', 'a@example.com'));
    expect(put!.Put!.Item).toMatchObject({ ...keys.contact('u1', 'b@example.com'), editedAt: NOW });
  });
});

describe('deleteContact', () => {
  it('deletes the contact and its counted slot together', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await deleteContact('u1', 'a@example.com')).toBe(true);
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![1]!.Update).toMatchObject({
      Key: keys.contactStats('u1'),
      ExpressionAttributeValues: { ':m': -1 },
    });
  });

  it('false when there was no contact', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    expect(await deleteContact('u1', 'a@example.com')).toBe(false);
    expect(ddbMock.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('a contact without a counted slot is deleted alone', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ok', 'ConditionalCheckFailed']));
    ddbMock.on(DeleteCommand).resolves({});
    expect(await deleteContact('u1', 'a@example.com')).toBe(true);
    expect(ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.contact('u1', 'a@example.com'),
      ConditionExpression: 'attribute_exists(pk)',
    });
  });

  it('lets throttling through', async () => {
    ddbMock.on(TransactWriteCommand).rejects(throttled());
    await expect(deleteContact('u1', 'a@example.com')).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
  });
});

describe('listContactRecords', () => {
  it('reads every page of CONTACT# items and drops items without an address', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({
        Items: [{ email: 'a@example.com', source: 'import', createdAt: 1 }],
        LastEvaluatedKey: { pk: 'x' },
      })
      .resolvesOnce({ Items: [{ email: '' }, { email: 'b@example.com', lastUsedAt: 5 }] });
    const rows = await listContactRecords('u1');
    expect(rows).toEqual([
      { email: 'a@example.com', source: 'import', createdAt: 1, lastUsedAt: null },
      { email: 'b@example.com', source: 'send', createdAt: 5, lastUsedAt: 5 },
    ]);
  });
});
