/**
 * The data modules' shared helpers (functions/data/base.ts) over a mocked document client: the
 * unit under test is how they read DynamoDB's answers and errors, not DynamoDB itself (the
 * integration tests run the data modules on DynamoDB Local).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  TABLE,
  conditionFailed,
  ddbMock,
  serviceError,
  throttled,
  transactionCancelled,
  useUnitEnv,
} from '../../helpers/aws-mock';
import {
  MAX_TRANSACT_ITEMS,
  claimUnique,
  conditionalUpdate,
  conditionalWrite,
  countAll,
  failedConditions,
  isConditionFailure,
  isTransactionCancelled,
  queryAll,
  table,
  transact,
  transactOr,
  type TransactItem,
} from '../../../functions/data/base';
import { ddb } from '../../../functions/lib/clients/dynamodb';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const put = (n: number): TransactItem => ({ Put: { TableName: TABLE, Item: { pk: `P#${n}`, sk: 'S' } } });

describe('table', () => {
  it('is the configured table', () => {
    expect(table()).toBe(TABLE);
  });
});

describe('isConditionFailure and failedConditions', () => {
  it('know a failed condition of a single write and of a transaction, and nothing else', () => {
    expect(isConditionFailure(conditionFailed())).toBe(true);
    expect(isConditionFailure(transactionCancelled(['ok', 'ConditionalCheckFailed']))).toBe(true);
    expect(isConditionFailure(transactionCancelled(['TransactionConflict', 'ok']))).toBe(false);
    expect(isConditionFailure(throttled())).toBe(false);
    expect(isConditionFailure(serviceError('ValidationException'))).toBe(false);
    expect(isConditionFailure(undefined)).toBe(false);
  });

  it('name which items of a cancelled transaction failed their condition', () => {
    const mixed = transactionCancelled([
      'ok',
      'ConditionalCheckFailed',
      'TransactionConflict',
      'ConditionalCheckFailed',
    ]);
    expect(failedConditions(mixed)).toEqual([1, 3]);
    expect(failedConditions(transactionCancelled(['TransactionConflict']))).toEqual([]);
    expect(failedConditions(conditionFailed())).toEqual([]);
  });

  it('isTransactionCancelled takes any cancellation, and only that', () => {
    expect(isTransactionCancelled(transactionCancelled(['TransactionConflict']))).toBe(true);
    expect(isTransactionCancelled(transactionCancelled(['ConditionalCheckFailed']))).toBe(true);
    expect(isTransactionCancelled(conditionFailed())).toBe(false);
    expect(isTransactionCancelled(throttled())).toBe(false);
  });
});

describe('conditionalWrite', () => {
  const write = () =>
    ddb().put({ TableName: TABLE, Item: { pk: 'P', sk: 'S' }, ConditionExpression: 'attribute_not_exists(pk)' });

  it('is true once written and false when the condition failed', async () => {
    ddbMock.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await conditionalWrite(write)).toBe(true);
    expect(await conditionalWrite(write)).toBe(false);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(2);
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(pk)');
  });

  it('is false for a transaction whose condition failed', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ok', 'ConditionalCheckFailed']));
    expect(await conditionalWrite(() => ddb().transactWrite({ TransactItems: [put(1), put(2)] }))).toBe(false);
  });

  it('throws every other error: throttling, validation, a conflict-only cancellation', async () => {
    ddbMock
      .on(DeleteCommand)
      .rejectsOnce(throttled())
      .rejectsOnce(serviceError('ValidationException'))
      .rejectsOnce(transactionCancelled(['TransactionConflict']));
    const del = () =>
      ddb().delete({ TableName: TABLE, Key: { pk: 'P', sk: 'S' }, ConditionExpression: 'attribute_exists(pk)' });
    await expect(conditionalWrite(del)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    await expect(conditionalWrite(del)).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(conditionalWrite(del)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
  });

  it('with another test of losing, is false for what it names and still throws the rest', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['TransactionConflict']))
      .rejectsOnce(throttled());
    const tx = () => ddb().transactWrite({ TransactItems: [put(1)] });
    expect(await conditionalWrite(tx, isTransactionCancelled)).toBe(false);
    await expect(conditionalWrite(tx, isTransactionCancelled)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
  });
});

describe('conditionalUpdate', () => {
  const update = () =>
    ddb().update({
      TableName: TABLE,
      Key: { pk: 'P', sk: 'S' },
      UpdateExpression: 'ADD n :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'ALL_NEW',
    });

  it('answers the returned attributes, or null when the condition failed', async () => {
    ddbMock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { pk: 'P', sk: 'S', n: 2 } })
      .rejectsOnce(conditionFailed());
    expect(await conditionalUpdate(update)).toEqual({ pk: 'P', sk: 'S', n: 2 });
    expect(await conditionalUpdate(update)).toBeNull();
  });

  it('answers an empty object when the write returned no attributes (not null: it was written)', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    expect(await conditionalUpdate(update)).toEqual({});
  });

  it('throws every other error', async () => {
    ddbMock.on(UpdateCommand).rejects(throttled());
    await expect(conditionalUpdate(update)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });
});

describe('queryAll', () => {
  it('follows LastEvaluatedKey to the last page, on the configured table', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ n: 1 }], LastEvaluatedKey: { pk: 'p', sk: '1' } })
      .resolvesOnce({ Items: [{ n: 2 }], LastEvaluatedKey: { pk: 'p', sk: '2' } })
      .resolvesOnce({ Items: [{ n: 3 }] });
    const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'p' } });
    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const inputs = ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(inputs.map((i) => i.ExclusiveStartKey)).toEqual([undefined, { pk: 'p', sk: '1' }, { pk: 'p', sk: '2' }]);
    expect(inputs.every((i) => i.TableName === TABLE && i.Limit === undefined)).toBe(true);
  });

  it('goes on past an empty page that still has a LastEvaluatedKey (a filter dropped all its items)', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [], LastEvaluatedKey: { pk: 'p', sk: '1' } })
      .resolvesOnce({ Items: [{ n: 1 }] });
    expect(await queryAll({ KeyConditionExpression: 'pk = :pk', FilterExpression: 'x = :x' })).toEqual([{ n: 1 }]);
    expect(ddbMock.commandCalls(QueryCommand)).toHaveLength(2);
  });

  it('with a limit, asks no page for more than it still needs and stops there', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: Array.from({ length: 100 }, (_, n) => ({ n })), LastEvaluatedKey: { pk: 'p' } })
      .resolvesOnce({ Items: Array.from({ length: 20 }, (_, n) => ({ n })), LastEvaluatedKey: { pk: 'q' } });
    const items = await queryAll({ KeyConditionExpression: 'pk = :pk' }, 120);
    expect(items).toHaveLength(120);
    expect(ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input.Limit)).toEqual([100, 20]);
  });

  it('with a limit, stops early when the table runs out', async () => {
    ddbMock.on(QueryCommand).resolvesOnce({ Items: [{ n: 1 }, { n: 2 }] });
    expect(await queryAll({ KeyConditionExpression: 'pk = :pk' }, 50)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input.Limit)).toEqual([50]);
  });
});

describe('transactOr', () => {
  it('is null once written, sending the items as given', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await transactOr([put(1), put(2)], ['first', 'second'])).toBeNull();
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toEqual([put(1), put(2)]);
  });

  it('names the first refused item, in item order, that has a name', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed', 'ConditionalCheckFailed']))
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ConditionalCheckFailed']))
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed', 'ConditionalCheckFailed']));
    expect(await transactOr([put(1), put(2), put(3)], ['a', 'b', 'c'])).toBe('b');
    expect(await transactOr([put(1), put(2), put(3)], ['a', 'b', 'c'])).toBe('a');
    expect(await transactOr([put(1), put(2), put(3)], ['a', undefined, 'c'])).toBe('c');
  });

  it('throws a failed condition it has no name for, a conflict, or any other error', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed']))
      .rejectsOnce(transactionCancelled(['TransactionConflict', 'ok']))
      .rejectsOnce(throttled());
    await expect(transactOr([put(1), put(2)], ['a'])).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    await expect(transactOr([put(1), put(2)], ['a', 'b'])).rejects.toMatchObject({
      name: 'TransactionCanceledException',
    });
    await expect(transactOr([put(1), put(2)], ['a', 'b'])).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
  });

  it('refuses more than 100 items before sending anything', async () => {
    const tooMany = Array.from({ length: MAX_TRANSACT_ITEMS + 1 }, (_, n) => put(n));
    await expect(transactOr(tooMany, [])).rejects.toThrow(RangeError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('claimUnique', () => {
  const name = { pk: 'NAME#n', sk: 'CLAIM', userId: 'u1' };
  const mine = { pk: 'USER#u1', sk: 'NAME', name: 'n' };

  it('puts both items, each only if it does not exist, in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await claimUnique(name, mine)).toBeNull();
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toEqual([
      { Put: { TableName: TABLE, Item: name, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: TABLE, Item: mine, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
  });

  it("says which side was refused: the name (taken) before the user's own (already_set)", async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed']))
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ConditionalCheckFailed']));
    expect(await claimUnique(name, mine)).toBe('taken');
    expect(await claimUnique(name, mine)).toBe('already_set');
    expect(await claimUnique(name, mine)).toBe('taken');
  });

  it('throws a conflict or any other error', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['TransactionConflict', 'ok']))
      .rejectsOnce(throttled());
    await expect(claimUnique(name, mine)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    await expect(claimUnique(name, mine)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });
});

describe('countAll', () => {
  it('adds up the counts of every page without reading items back', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Count: 3, LastEvaluatedKey: { pk: 'p' } })
      .resolvesOnce({ Count: 4 });
    expect(await countAll({ KeyConditionExpression: 'pk = :pk' })).toBe(7);
    const inputs = ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(inputs.map((i) => [i.TableName, i.Select, i.ExclusiveStartKey])).toEqual([
      [TABLE, 'COUNT', undefined],
      [TABLE, 'COUNT', { pk: 'p' }],
    ]);
  });
});

describe('transact', () => {
  it('sends the defined items only and answers false when a condition failed', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed']))
      .resolves({});
    expect(await transact([put(1), undefined])).toBe(false);
    expect(await transact([put(1)])).toBe(true);
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toEqual([put(1)]);
  });

  it('lets a conflict or throttling through to the caller', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['TransactionConflict']))
      .rejectsOnce(throttled());
    await expect(transact([put(1)])).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    await expect(transact([put(1)])).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });

  it('with isTransactionCancelled, answers false for a conflict too', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['TransactionConflict', 'ok']));
    expect(await transact([put(1), put(2)], isTransactionCancelled)).toBe(false);
  });

  it("sends up to DynamoDB's 100 items in one call", async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const items = Array.from({ length: MAX_TRANSACT_ITEMS }, (_, n) => put(n));
    expect(await transact([...items, undefined])).toBe(true);
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toHaveLength(100);
  });

  it('refuses more than 100 items, or none, before sending anything', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    const tooMany = Array.from({ length: MAX_TRANSACT_ITEMS + 1 }, (_, n) => put(n));
    await expect(transact(tooMany)).rejects.toThrow(RangeError);
    await expect(transact([undefined])).rejects.toThrow(RangeError);
    await expect(transact([])).rejects.toThrow(RangeError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
