/** The smaller data modules: abuse reports, analytics reads, API keys, branding, health probe and job runs, thumbnails, transfer actions, the dashboard list. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { TABLE, conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import { listAbuseReports, putAbuseReport } from '../../../functions/data/abuse';
import { queryDayStats, queryDownloadLog, transferNames } from '../../../functions/data/analytics';
import { createApiKey, deleteApiKey, getApiKey, touchApiKey } from '../../../functions/data/api-keys';
import { getBranding, updateBranding } from '../../../functions/data/branding';
import { getJobRun, roundTripProbe } from '../../../functions/data/system';
import { getUserDomain } from '../../../functions/data/custom-domains';
import { getEvent } from '../../../functions/data/webhooks';
import { countLogin } from '../../../functions/data/users';
import { claimThumbnail, finishThumbnail, releaseThumbnailClaim } from '../../../functions/data/thumbnails';
import { claimCopy, setExpiryChoice, setPasswordHash } from '../../../functions/data/transfer-actions';
import { countExpiredUnswept, listItems } from '../../../functions/data/transfer-list';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;

describe('abuse reports', () => {
  it('are queued in time order and listed per transfer with a filter, every page', async () => {
    ddbMock.on(PutCommand).resolves({});
    await putAbuseReport({ id: 'a1', slug: 's1', reason: 'spam' as never, sourceIp: '203.0.113.1', createdAt: NOW });
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input.Item).toMatchObject({
      pk: 'ABUSE',
      sk: `${String(NOW).padStart(15, '0')}#a1`,
      entity: 'AbuseReport',
    });
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({
        Items: [{ pk: 'ABUSE', sk: 'x', entity: 'AbuseReport', id: 'a1', slug: 's1' }],
        LastEvaluatedKey: { pk: 'ABUSE' },
      })
      .resolvesOnce({ Items: [] });
    expect(await listAbuseReports('s1')).toEqual([{ id: 'a1', slug: 's1' }]);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      FilterExpression: 'slug = :s',
      ExpressionAttributeValues: { ':pk': 'ABUSE', ':s': 's1' },
    });
  });
});

describe('analytics reads', () => {
  it('day counters: every page between the two days', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ sk: 'DAY#2026-01-01' }], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ sk: 'DAY#2026-01-02' }] });
    expect(await queryDayStats('u1', '2026-01-01', '2026-01-31')).toHaveLength(2);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input.ExpressionAttributeValues).toEqual({
      ':pk': 'USER#u1',
      ':lo': 'DAY#2026-01-01',
      ':hi': 'DAY#2026-01-31',
    });
  });

  it("transfer names: one BatchGet, unprocessed keys again, the first file's name or the slug for the rest", async () => {
    ddbMock
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [TABLE]: [{ slug: 's1', fileName: 'one.pdf' }] },
        UnprocessedKeys: { [TABLE]: { Keys: [keys.transfer('s2')] } },
      })
      .resolvesOnce({ Responses: { [TABLE]: [{ slug: 's2' }] } });
    ddbMock.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TRANSFER#s2', ':p': keys.filePrefix } }).resolves({
      Items: [
        { fileName: 'later.txt', createdAt: 2 },
        { fileName: 'first.txt', createdAt: 1 },
      ],
    });
    ddbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TRANSFER#s3', ':p': keys.filePrefix } })
      .resolves({ Items: [] });
    const names = await transferNames(['s1', 's2', 's3']);
    expect(Object.fromEntries(names)).toEqual({ s1: 'one.pdf', s2: 'first.txt', s3: 's3' });
    expect(ddbMock.commandCalls(BatchGetCommand)[1]!.args[0].input.RequestItems![TABLE]!.Keys).toEqual([
      keys.transfer('s2'),
    ]);
  });

  it('the download log pages by key and hands back the next one', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [{ dlDate: 1, slug: 's', fileName: 'f', dlOrigin: 'zip', countryCode: 'DE', country_name: 'Germany' }],
      LastEvaluatedKey: { pk: 'p', sk: 'k' },
    });
    const page = await queryDownloadLog('u1', 0, NOW, 1, { pk: 'p', sk: 'j' });
    expect(page).toEqual({
      rows: [{ dlDate: 1, slug: 's', fileName: 'f', dlOrigin: 'zip', countryCode: 'DE', country_name: 'Germany' }],
      next: { pk: 'p', sk: 'k' },
    });
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      Limit: 1,
      ExclusiveStartKey: { pk: 'p', sk: 'j' },
    });
  });
});

describe('API keys', () => {
  const k = {
    keyId: 'k1',
    userId: 'u1',
    env: 'live' as const,
    name: 'CI',
    scopes: ['send' as const],
    keyHash: 'h',
    createdAt: NOW,
  };

  it('a new key is counted under the maximum with it; false when the user is at the maximum', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    expect(await createApiKey(k, 5)).toBe(true);
    expect(await createApiKey(k, 5)).toBe(false);
    const [count, put] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(count!.Update).toMatchObject({
      Key: keys.apiKeyStats('u1'),
      ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
      ExpressionAttributeValues: { ':max': 5 },
    });
    expect(put!.Put!.Item).toMatchObject({ ...keys.apiKey('k1'), keyHash: 'h' });
  });

  it('a key is read consistently (a revoked key is gone at once) and deleted only by its user', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { ...k, scopes: ['send', 'bogus'] } });
    expect(await getApiKey('k1')).toEqual({ ...k, scopes: ['send'] });
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input.ConsistentRead).toBe(true);
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    expect(await deleteApiKey('u2', 'k1')).toBe(false);
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Delete).toMatchObject({
      ConditionExpression: 'userId = :u',
      ExpressionAttributeValues: { ':u': 'u2' },
    });
  });

  it('touching a revoked key does not bring it back, and is no error', async () => {
    ddbMock.on(UpdateCommand).rejectsOnce(conditionFailed()).rejectsOnce(throttled());
    await expect(touchApiKey('k1', NOW)).resolves.toBeUndefined();
    await expect(touchApiKey('k1', NOW)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.ConditionExpression).toBe(
      'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :at)',
    );
  });
});

describe('branding', () => {
  it('no item is no branding; empty strings are left out', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({})
      .resolvesOnce({ Item: { backgroundColor: '', accentColor: '#112233', hidePoweredBy: true } });
    expect(await getBranding('u1')).toEqual({});
    expect(await getBranding('u1')).toEqual({ accentColor: '#112233', hidePoweredBy: true });
  });

  it('an edit sets given fields and removes nulled ones', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    await updateBranding('u1', { accentColor: '#000000', backgroundKey: null }, NOW);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.branding('u1'),
      UpdateExpression:
        'SET #updatedAt = :updatedAt, #entity = :entity, #accentColor = :accentColor REMOVE #backgroundKey',
    });
  });
});

describe('the health probe', () => {
  it('writes a fresh item, reads it back and deletes it; a wrong read back fails', async () => {
    ddbMock.on(PutCommand).resolves({});
    ddbMock
      .on(GetCommand)
      .callsFake(() => ({ Item: { probeId: ddbMock.commandCalls(PutCommand).at(-1)!.args[0].input.Item!.probeId } }));
    ddbMock.on(DeleteCommand).resolves({});
    await roundTripProbe();
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(ddbMock.commandCalls(DeleteCommand)).toHaveLength(1);
    ddbMock.on(GetCommand).resolves({ Item: { probeId: 'someone else' } });
    await expect(roundTripProbe()).rejects.toThrow('did not read back');
  });
});

describe('thumbnails', () => {
  it('a build is claimed only on an uploaded file without one, or a stale one', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await claimThumbnail('s1', 'f1', NOW, NOW - 60_000)).toBe(true);
    expect(await claimThumbnail('s1', 'f1', NOW, NOW - 60_000)).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression:
        'attribute_exists(pk) AND #s = :u AND (attribute_not_exists(thumbStatus) OR (thumbStatus = :b AND thumbStartedAt < :stale))',
      ExpressionAttributeValues: { ':u': 'uploaded', ':stale': NOW - 60_000 },
    });
  });

  it("finishing and releasing act on this build's own claim only", async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await finishThumbnail('s1', 'f1', NOW, { status: 'ready', bytes: 10 })).toBe(false);
    await expect(releaseThumbnailClaim('s1', 'f1', NOW)).resolves.toBeUndefined();
    for (const c of ddbMock.commandCalls(UpdateCommand))
      expect(c.args[0].input).toMatchObject({
        ConditionExpression: 'thumbStatus = :b AND thumbStartedAt = :at',
        ExpressionAttributeValues: { ':at': NOW },
      });
  });
});

describe('transfer actions', () => {
  it('a password is set only on a sent transfer whose files are kept', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await setPasswordHash('s1', null)).toBe(true);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression: 'REMOVE passwordHash',
      ConditionExpression: 'attribute_exists(pk) AND #s IN (:ready, :expired) AND attribute_not_exists(purged)',
    });
    expect(await setPasswordHash('s1', 'hash')).toBe(false);
  });

  it('the expiry choice of a gone transfer is no error', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    await expect(setExpiryChoice('s1', 86_400, undefined)).resolves.toBeUndefined();
  });

  it('a queued copy is claimed by one run until its claim lapses, keeping only well-formed pairs', async () => {
    ddbMock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { files: [['a', 'b'], ['c'], [1, 2]] } })
      .rejectsOnce(conditionFailed());
    expect(await claimCopy('s1', NOW, NOW + 60_000)).toEqual({ slug: 's1', files: [['a', 'b']] });
    expect(await claimCopy('s1', NOW, NOW + 60_000)).toBeUndefined();
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
      ExpressionAttributeValues: { ':now': NOW, ':until': NOW + 60_000 },
    });
  });
});

describe('the dashboard list', () => {
  it('reads a list index page by page, sent transfers only, with the search filter', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ slug: 'a' }], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ slug: 'b' }] });
    const slugs: string[] = [];
    for await (const t of listItems(
      { index: 'gsi3', partition: 'P', above: 'lo', atMost: 'hi', newestFirst: true },
      { search: 'q', pageSize: 10 },
    ))
      slugs.push(t.slug);
    expect(slugs).toEqual(['a', 'b']);
    const input = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      IndexName: 'gsi3',
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
      FilterExpression: '#st IN (:ready, :expired) AND contains(searchText, :q)',
      ExpressionAttributeNames: { '#pk': 'gsi3pk', '#sk': 'gsi3sk' },
      ScanIndexForward: false,
      Limit: 10,
    });
    expect(ddbMock.commandCalls(QueryCommand)[1]!.args[0].input.ExclusiveStartKey).toEqual({ pk: 'x' });
  });

  it('counts expired-but-unswept transfers over every page with COUNT queries', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Count: 2, LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Count: 1 });
    expect(await countExpiredUnswept('u1', NOW)).toBe(3);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      Select: 'COUNT',
      IndexName: 'gsi3',
      ExpressionAttributeValues: { ':now': keys.expiryBound(NOW) },
    });
  });
});

describe('reads that drop what they cannot trust', () => {
  it('a job run or a webhook event past its ttl reads as absent', async () => {
    ddbMock.on(GetCommand).resolves({
      Item: {
        lastRunAt: 1,
        runs: 2,
        id: 'e',
        type: 't',
        userId: 'u',
        createdAt: 1,
        body: '{}',
        ttl: Math.floor(NOW / 1000) - 1,
      },
    });
    expect(await getJobRun('heartbeat')).toBeUndefined();
    expect(await getEvent('e', NOW)).toBeUndefined();
  });

  it('a custom domain keeps only well-formed record problems', async () => {
    ddbMock.on(GetCommand).resolves({
      Item: {
        host: 'f.example.com',
        token: 't',
        status: 'weird',
        problems: [
          { record: 'cname', state: 'wrong', found: 'x.example.net' },
          { record: 'mx', state: 'missing' },
          null,
        ],
        createdAt: 1,
      },
    });
    expect(await getUserDomain('u1')).toEqual({
      host: 'f.example.com',
      token: 't',
      status: 'pending',
      problems: [{ record: 'cname', state: 'wrong', found: 'x.example.net' }],
      createdAt: 1,
      failedChecks: 0,
    });
  });

  it('counting a login needs the profile, and answers the new count', async () => {
    ddbMock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { loginCount: 7 } })
      .rejectsOnce(conditionFailed());
    expect(await countLogin('u1')).toBe(7);
    await expect(countLogin('u1')).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression: 'ADD loginCount :one',
      ConditionExpression: 'attribute_exists(pk)',
      ReturnValues: 'UPDATED_NEW',
    });
  });
});
