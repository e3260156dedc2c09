import { beforeEach, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TABLE, conditionFailed, ddbMock, throttled, useUnitEnv } from '../../helpers/aws-mock';
import {
  addClientFailure,
  consumeProofToken,
  getClientFailures,
  getEmailCode,
  getExtensionToken,
  getProofToken,
  grantExtensionToken,
  hitRateWindow,
  putEmailCode,
  putProofToken,
} from '../../../functions/data/verification';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = Date.UTC(2026, 0, 10, 12, 0, 30);
const nowSeconds = Math.floor(NOW / 1000);

describe('email codes', () => {
  it("store a ttl at the code's expiry, replacing an earlier code", async () => {
    ddbMock.on(PutCommand).resolves({});
    await putEmailCode(
      { purpose: 'sender', email: 'a@example.com', codeHash: 'h', salt: 's', expiresAt: NOW + 600_000 },
      NOW,
    );
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.Item).toMatchObject({ ...keys.emailCode('sender', 'a@example.com'), ttl: nowSeconds + 600 });
    expect(put.ConditionExpression).toBeUndefined();
  });

  it('a code past its ttl reads as absent', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { codeHash: 'h', salt: 's', expiresAt: NOW - 1, ttl: nowSeconds - 1 } });
    expect(await getEmailCode('sender', 'a@example.com', NOW)).toBeUndefined();
  });
});

describe('proof tokens', () => {
  it('are written once, and read as absent past their expiry even before the ttl deletes them', async () => {
    ddbMock.on(PutCommand).resolves({});
    await putProofToken('reset', 'th', { email: 'a@example.com', userId: 'u1' }, NOW + 1000, NOW);
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(pk)');
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { email: 'a@example.com', userId: 'u1', expiresAt: NOW + 1000, ttl: nowSeconds + 1 } })
      .resolvesOnce({ Item: { email: 'a@example.com', expiresAt: NOW, ttl: nowSeconds + 100 } });
    expect(await getProofToken('reset', 'th', NOW)).toEqual({ email: 'a@example.com', userId: 'u1' });
    expect(await getProofToken('reset', 'th', NOW)).toBeUndefined();
  });

  it('are consumed by one caller only', async () => {
    ddbMock.on(DeleteCommand).resolvesOnce({}).rejectsOnce(conditionFailed()).rejectsOnce(throttled());
    expect(await consumeProofToken('reset', 'th')).toBe(true);
    expect(await consumeProofToken('reset', 'th')).toBe(false);
    await expect(consumeProofToken('reset', 'th')).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    expect(ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
      TableName: TABLE,
      ConditionExpression: 'attribute_exists(pk)',
    });
  });
});

describe('extension tokens', () => {
  it('are granted once', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await grantExtensionToken('t', NOW)).toBe(true);
    expect(await grantExtensionToken('t', NOW)).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.ConditionExpression).toBe(
      'attribute_exists(pk) AND attribute_not_exists(grantedExpiryDate)',
    );
  });

  it('past their ttl read as absent', async () => {
    ddbMock.on(GetCommand).resolves({
      Item: { slug: 's', requesterEmail: 'r@example.com', lang: 'en', createdAt: 1, ttl: nowSeconds - 5 },
    });
    expect(await getExtensionToken('t', NOW)).toBeUndefined();
  });
});

describe('hitRateWindow', () => {
  it('adds the hit with a condition that keeps hits + amount within the limit, in the current window', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    expect(await hitRateWindow('login', 'a@example.com', 5, 60, NOW, 2)).toEqual({
      allowed: true,
      retryAfterSeconds: 30,
    });
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    const windowStart = Math.floor(NOW / 60_000) * 60_000;
    expect(input.Key).toEqual(keys.rateWindow('login', 'a@example.com', windowStart));
    expect(input.ConditionExpression).toBe('attribute_not_exists(hits) OR hits <= :max');
    expect(input.ExpressionAttributeValues).toMatchObject({
      ':n': 2,
      ':max': 3,
      ':ttl': Math.floor((windowStart + 120_000) / 1000),
    });
  });

  it('refuses when the condition fails, and an amount over the limit without a write', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await hitRateWindow('login', 'x', 5, 60, NOW)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(await hitRateWindow('login', 'x', 5, 60, NOW, 6)).toMatchObject({ allowed: false });
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('does not turn a throttled table into a refusal', async () => {
    ddbMock.on(UpdateCommand).rejects(throttled());
    await expect(hitRateWindow('login', 'x', 5, 60, NOW)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
  });
});

describe('client failures', () => {
  it('an expired record counts as none', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { failures: 4, lastFailureAt: 1, ttl: nowSeconds - 1 } });
    expect(await getClientFailures('pw', 's', 'c', NOW)).toEqual({ failures: 0, lastFailureAt: 0 });
  });

  it('adds one atomically and answers the new count', async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { failures: 3 } });
    expect(await addClientFailure('pw', 's', 'c', 900, NOW)).toBe(3);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: 'attribute_not_exists(pk) OR #t > :nowSeconds',
      ExpressionAttributeValues: { ':ttl': nowSeconds + 900, ':nowSeconds': nowSeconds },
    });
  });

  it('starts over at 1 on a record expired but not yet deleted', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    ddbMock.on(PutCommand).resolves({});
    expect(await addClientFailure('pw', 's', 'c', 900, NOW)).toBe(1);
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input.Item).toMatchObject({
      failures: 1,
      lastFailureAt: NOW,
      ttl: nowSeconds + 900,
    });
  });
});
