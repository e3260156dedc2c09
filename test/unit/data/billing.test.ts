import { beforeEach, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  EVENT_MEMORY_SECONDS,
  claimEvent,
  eventProcessed,
  linkCustomer,
  putBillingState,
  redeemSumoCode,
  setStripeId,
} from '../../../functions/data/billing';
import { keys } from '../../../functions/data/keys';
import type { BillingState } from '../../../functions/domain/billing';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;

describe('customers', () => {
  it('a customer is linked to one account only', async () => {
    ddbMock.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await linkCustomer('cus_1', 'u1', NOW)).toBe(true);
    expect(await linkCustomer('cus_1', 'u2', NOW)).toBe(false);
    expect(ddbMock.commandCalls(PutCommand)[1]!.args[0].input).toMatchObject({
      Item: keys.stripeCustomer('cus_1'),
      ConditionExpression: 'attribute_not_exists(pk) OR userId = :u',
      ExpressionAttributeValues: { ':u': 'u2' },
    });
  });

  it("the profile's customer id is set once", async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await setStripeId('u1', 'cus_2')).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.ConditionExpression).toBe(
      'attribute_exists(pk) AND (attribute_not_exists(stripeId) OR stripeId = :c)',
    );
  });
});

describe('webhook events', () => {
  it('are claimed once, an expired claim not counting, and remembered 30 days', async () => {
    ddbMock.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed()).rejectsOnce(throttled());
    expect(await claimEvent('evt_1', 'invoice.paid', NOW)).toBe(true);
    expect(await claimEvent('evt_1', 'invoice.paid', NOW)).toBe(false);
    await expect(claimEvent('evt_1', 'invoice.paid', NOW)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.ConditionExpression).toBe('attribute_not_exists(pk) OR #ttl < :now');
    expect(put.ExpressionAttributeValues).toEqual({ ':now': NOW / 1000 });
    expect(put.Item!.ttl).toBe(NOW / 1000 + EVENT_MEMORY_SECONDS);
  });

  it('a processed event past its ttl is not processed any more', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { ttl: NOW / 1000 + 1 } })
      .resolvesOnce({ Item: { ttl: NOW / 1000 - 1 } })
      .resolvesOnce({});
    expect(await eventProcessed('evt_1', NOW)).toBe(true);
    expect(await eventProcessed('evt_1', NOW)).toBe(false);
    expect(await eventProcessed('evt_1', NOW)).toBe(false);
  });
});

describe('putBillingState', () => {
  const state = {
    subscriptionRole: 'pro',
    status: 'active',
    stripeId: 'cus_1',
    subscriptionId: 'sub_1',
    cancelAtPeriodEnd: false,
    at: NOW,
    priceId: 'price_1',
    period: 'month',
    trialEnd: null,
    periodEnd: NOW + 1,
    card: undefined,
  } as unknown as BillingState;

  it('writes only if the profile is as read, removing the fields the state lacks', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    expect(await putBillingState('u1', state, 'pro', { billingUpdatedAt: NOW - 5, sumoCodes: 2 })).toBe(true);
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe(
      'attribute_exists(pk) AND billingUpdatedAt = :readAt AND sumoCodes = :readCodes',
    );
    expect(input.ExpressionAttributeValues).toMatchObject({ ':readAt': NOW - 5, ':readCodes': 2, ':role': 'pro' });
    expect(input.UpdateExpression).toMatch(/ REMOVE #trialEnd, #card$/);
  });

  it('a first state conditions on none stored yet; a concurrent change answers false', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await putBillingState('u1', state, 'pro', { billingUpdatedAt: null, sumoCodes: 0 })).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.ConditionExpression).toBe(
      'attribute_exists(pk) AND attribute_not_exists(billingUpdatedAt) AND (attribute_not_exists(sumoCodes) OR sumoCodes = :zero)',
    );
  });
});

describe('redeemSumoCode', () => {
  it('claims the code and counts it on the profile as read, in one transaction', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    const read = { billingUpdatedAt: null, sumoCodes: 1 };
    expect(await redeemSumoCode('u1', 'hash', 'pro', read, 3, NOW)).toBe(true);
    expect(await redeemSumoCode('u1', 'hash', 'pro', read, 3, NOW)).toBe(false);
    const [code, profile] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(code!.Update).toMatchObject({
      Key: keys.sumoCode('hash'),
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(redeemedBy)',
    });
    expect(profile!.Update!.ExpressionAttributeValues).toMatchObject({ ':next': 2, ':readCodes': 1 });
  });

  it('refuses past the maximum without a write', async () => {
    expect(await redeemSumoCode('u1', 'hash', 'pro', { billingUpdatedAt: null, sumoCodes: 3 }, 3, NOW)).toBe(false);
    expect(ddbMock.calls()).toHaveLength(0);
  });
});
