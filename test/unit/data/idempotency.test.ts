import { beforeEach, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, throttled, useUnitEnv } from '../../helpers/aws-mock';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  getIdempotencyRecord,
  releaseIdempotencyKey,
} from '../../../functions/data/idempotency';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;
const v = { requestHash: 'rh', claim: 'c1', ttlSeconds: 86_400, staleBefore: NOW - 60_000 };

describe('claimIdempotencyKey', () => {
  it('claims a new, expired or stale key', async () => {
    ddbMock.on(PutCommand).resolves({});
    expect(await claimIdempotencyKey('u1', 'k', v, NOW)).toEqual({ claimed: true });
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.Item).toMatchObject({
      ...keys.idempotencyKey('u1', 'k'),
      state: 'pending',
      claim: 'c1',
      ttl: NOW / 1000 + 86_400,
    });
    expect(put.ConditionExpression).toBe(
      'attribute_not_exists(pk) OR #ttl < :nowSeconds OR (#state = :pending AND claimedAt < :staleBefore)',
    );
    expect(put.ExpressionAttributeValues).toEqual({
      ':nowSeconds': NOW / 1000,
      ':pending': 'pending',
      ':staleBefore': NOW - 60_000,
    });
  });

  it('a held key answers the record there, the stored answer included', async () => {
    const body = new Uint8Array([123, 125]);
    ddbMock.on(PutCommand).rejects(conditionFailed());
    ddbMock.on(GetCommand).resolves({
      Item: {
        state: 'done',
        requestHash: 'rh',
        claimedAt: NOW,
        claim: 'c0',
        status: 201,
        body,
        ttl: NOW / 1000 + 10,
      },
    });
    expect(await claimIdempotencyKey('u1', 'k', v, NOW)).toEqual({
      claimed: false,
      existing: { state: 'done', requestHash: 'rh', claimedAt: NOW, claim: 'c0', status: 201, body },
    });
  });

  it('lets throttling through rather than answering a replay', async () => {
    ddbMock.on(PutCommand).rejects(throttled());
    await expect(claimIdempotencyKey('u1', 'k', v, NOW)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(0);
  });
});

describe('records', () => {
  it('an expired record reads as absent', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { state: 'done', body: new Uint8Array(), ttl: NOW / 1000 - 1 } });
    expect(await getIdempotencyRecord('u1', 'k', NOW)).toBeUndefined();
  });

  it('an answer is stored only by the call holding the claim', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    const done = { claim: 'c1', status: 200, body: new Uint8Array([1]), ttlSeconds: 60 };
    expect(await completeIdempotencyKey('u1', 'k', done, NOW)).toBe(true);
    expect(await completeIdempotencyKey('u1', 'k', done, NOW)).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: 'claim = :claim',
      ExpressionAttributeValues: { ':claim': 'c1', ':status': 200, ':ttl': NOW / 1000 + 60 },
    });
  });

  it('a failed call gives back only its own pending claim', async () => {
    ddbMock.on(DeleteCommand).rejects(conditionFailed());
    await expect(releaseIdempotencyKey('u1', 'k', 'c1')).resolves.toBeUndefined();
    expect(ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: 'claim = :claim AND #state = :pending',
      ExpressionAttributeValues: { ':claim': 'c1', ':pending': 'pending' },
    });
  });
});
