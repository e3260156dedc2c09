import { beforeEach, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  claimDomain,
  liveDomainOwner,
  releaseDomain,
  saveCheck,
  servedCustomHost,
  servedHosts,
  tenantCreated,
  tenantDeleted,
} from '../../../functions/data/custom-domains';
import { claimEmailDomain, releaseEmailDomain, saveEmailDomainState } from '../../../functions/data/email-domains';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;

describe('custom domain claims', () => {
  it('a host is looked up normalized, and only a verified, live claim has an owner', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { status: 'verified', userId: 'u1' } })
      .resolvesOnce({ Item: { status: 'pending', userId: 'u1' } })
      .resolvesOnce({ Item: { status: 'verified', userId: 'u1', ttl: Math.floor(Date.now() / 1000) - 1 } });
    expect(await liveDomainOwner(' Files.Example.COM.:443 ')).toBe('u1');
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual(keys.customDomain('files.example.com'));
    expect(await liveDomainOwner('files.example.com')).toBeUndefined();
    expect(await liveDomainOwner('files.example.com')).toBeUndefined();
  });

  it('claiming names which side was held: the host (taken) or the user (already_set)', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed']))
      .rejectsOnce(throttled());
    expect(await claimDomain('u1', 'f.example.com', 'tok', NOW, NOW + 60_000)).toBeNull();
    expect(await claimDomain('u1', 'f.example.com', 'tok', NOW, NOW + 60_000)).toBe('taken');
    expect(await claimDomain('u1', 'f.example.com', 'tok', NOW, NOW + 60_000)).toBe('already_set');
    await expect(claimDomain('u1', 'f.example.com', 'tok', NOW, NOW)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    const [claim, mine] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(claim!.Put!.Item).toMatchObject({
      ...keys.customDomain('f.example.com'),
      ...keys.domainCheckIndex(NOW + 60_000, 'f.example.com'),
      status: 'pending',
    });
    expect(mine!.Put).toMatchObject({
      Item: { ...keys.userCustomDomain('u1'), token: 'tok', nextCheckAt: NOW + 60_000 },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('a verified check sets the profile option and queues the CDN tenant; a released claim answers false', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok', 'ok']));
    const verified = { status: 'verified' as const, problems: [], checkedAt: NOW, nextCheckAt: null, failedChecks: 0 };
    expect(await saveCheck('u1', 'f.example.com', verified)).toBe(true);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(4);
    expect(items[0]!.Update).toMatchObject({
      ConditionExpression: 'userId = :u',
      UpdateExpression: 'SET #s = :s, checkedAt = :c REMOVE gsi2pk, gsi2sk',
    });
    expect(items[2]!.Update).toMatchObject({
      Key: keys.userProfile('u1'),
      ExpressionAttributeValues: { ':o': 'custom' },
    });
    expect(items[3]!.Put!.Item).toMatchObject({ ...keys.domainTenant('f.example.com'), want: 'present' });
    expect(await saveCheck('u1', 'f.example.com', verified)).toBe(false);
  });

  it('a pending check stays queued at its next time', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await saveCheck('u1', 'f.example.com', {
      status: 'pending',
      problems: [{ record: 'txt', state: 'missing' }],
      checkedAt: NOW,
      nextCheckAt: NOW + 5,
      failedChecks: 2,
    });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(2);
    expect(items[0]!.Update!.ExpressionAttributeValues).toMatchObject({
      ':gsk': keys.domainCheckIndex(NOW + 5, 'f.example.com').gsi2sk,
    });
    expect(items[1]!.Update!.ExpressionAttributeValues).toMatchObject({
      ':n': NOW + 5,
      ':f': 2,
      ':p': [{ record: 'txt', state: 'missing' }],
    });
  });

  it("releasing frees both sides and queues the tenant's deletion when there is one", async () => {
    ddbMock.on(GetCommand).resolves({ Item: { host: 'f.example.com', token: 't', status: 'verified' } });
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await releaseDomain('u1', NOW)).toBe('f.example.com');
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Delete).toMatchObject({
      Key: keys.customDomain('f.example.com'),
      ExpressionAttributeValues: { ':u': 'u1' },
    });
    expect(items[2]!.Update!.ExpressionAttributeValues).toEqual({ ':o': 'standard' });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.domainTenant('f.example.com'),
      ConditionExpression: 'attribute_exists(pk)',
    });
  });

  it('releasing without a domain writes nothing', async () => {
    ddbMock.on(GetCommand).resolves({});
    expect(await releaseDomain('u1', NOW)).toBeUndefined();
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('CDN tenants', () => {
  it('a created tenant is recorded only while still wanted', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed()).rejectsOnce(throttled());
    expect(await tenantCreated('f.example.com', 'dt-1', 'E1')).toBe(true);
    expect(await tenantCreated('f.example.com', 'dt-1', undefined)).toBe(false);
    await expect(tenantCreated('f.example.com', 'dt-1', undefined)).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: 'want = :present',
      ExpressionAttributeValues: { ':id': 'dt-1', ':etag': 'E1' },
    });
  });

  it("a deleted tenant's record goes unless the host is wanted again", async () => {
    ddbMock.on(DeleteCommand).rejects(conditionFailed());
    await expect(tenantDeleted('f.example.com')).resolves.toBeUndefined();
    expect(ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input.ConditionExpression).toBe('want = :absent');
  });

  it('served hosts: every page of the served index; a custom host is served with a verified owner and a made tenant', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ host: 'a.example.com' }], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ host: 'b.example.com' }] });
    expect(await servedHosts()).toEqual(['a.example.com', 'b.example.com']);
    ddbMock
      .on(GetCommand, { Key: keys.customDomain('a.example.com') })
      .resolves({ Item: { status: 'verified', userId: 'u1' } });
    ddbMock
      .on(GetCommand, { Key: keys.domainTenant('a.example.com') })
      .resolvesOnce({ Item: { host: 'a.example.com', want: 'present', tenantId: 'dt' } })
      .resolvesOnce({ Item: { host: 'a.example.com', want: 'present' } });
    expect(await servedCustomHost('A.example.com')).toBe(true);
    expect(await servedCustomHost('a.example.com')).toBe(false);
  });
});

describe('sender email domains', () => {
  it('claiming names which side was held', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed']));
    expect(await claimEmailDomain('u1', 'example.com', NOW)).toBe('taken');
    expect(await claimEmailDomain('u1', 'example.com', NOW)).toBe('already_set');
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Put!.Item).toMatchObject(
      keys.emailDomainClaim('example.com'),
    );
  });

  it('the state is saved only on the domain it was checked for', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    await expect(saveEmailDomainState('u1', 'example.com', ['t1'], 'SUCCESS' as never, NOW)).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: '#d = :d',
      ExpressionAttributeValues: { ':d': 'example.com', ':t': ['t1'] },
    });
  });

  it("releasing deletes the claim only if it is this user's", async () => {
    ddbMock.on(GetCommand).resolves({ Item: { domain: 'example.com', dkimTokens: ['a', 1], status: 'SUCCESS' } });
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await releaseEmailDomain('u1')).toBe('example.com');
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Delete).toMatchObject({
      ConditionExpression: 'attribute_not_exists(pk) OR userId = :u',
      ExpressionAttributeValues: { ':u': 'u1' },
    });
  });
});
