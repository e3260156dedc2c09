import { beforeEach, describe, expect, it } from 'vitest';
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { TABLE, conditionFailed, ddbMock, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  addFiles,
  setDisabled,
  changeExpiry,
  claimZipBuild,
  finishZip,
  renewZipLease,
  createTransfer,
  getTransfer,
  listFiles,
  listSweepDue,
  markDeleted,
  markExpired,
  markSent,
  resetFileUpload,
  setFileScan,
  setStatus,
  type FileRecord,
  type TransferRecord,
} from '../../../functions/data/transfers';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = Date.UTC(2026, 0, 10);

function transfer(over: Partial<TransferRecord> = {}): TransferRecord {
  return {
    slug: 'abc123',
    status: 'uploading',
    region: 'hongkong',
    anon: false,
    sendAs: 'email',
    senderId: 'user-1',
    senderEmail: 'a@example.com',
    message: '',
    lang: 'en',
    recipients: [],
    shareWith: [],
    uploadTokenHash: 'h',
    uploadTokenExpiresAt: NOW + 1000,
    fileCount: 1,
    totalBytes: 10,
    createdAt: NOW,
    expirySeconds: 86400,
    expiryDate: NOW + 86400_000,
    totalDownloads: 0,
    ...over,
  } as TransferRecord;
}

const file = (fileId: string): FileRecord =>
  ({
    slug: 'abc123',
    fileId,
    fileName: `${fileId}.txt`,
    size: 1,
    key: `k/${fileId}`,
    mode: 'single',
    status: 'pending',
    createdAt: NOW,
  }) as unknown as FileRecord;

describe('createTransfer', () => {
  it('puts the transfer only if the slug is free, in the sweep index, then its files in one batch', async () => {
    ddbMock.on(PutCommand).resolves({}).on(BatchWriteCommand).resolves({});
    expect(await createTransfer(transfer({ sweepDueAt: NOW + 5 }), [file('f1'), file('f2')])).toBe(true);
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put).toMatchObject({
      TableName: TABLE,
      ConditionExpression: 'attribute_not_exists(pk)',
      Item: { pk: 'TRANSFER#abc123', sk: 'META', entity: 'Transfer', gsi2pk: 'SWEEP' },
    });
    const batch = ddbMock.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems![TABLE]!;
    expect(batch.map((r) => r.PutRequest?.Item?.sk)).toEqual(['FILE#f1', 'FILE#f2']);
  });

  it('answers false on a taken slug and writes no files', async () => {
    ddbMock.on(PutCommand).rejects(conditionFailed());
    expect(await createTransfer(transfer(), [file('f1')])).toBe(false);
    expect(ddbMock.commandCalls(BatchWriteCommand)).toHaveLength(0);
  });

  it('writes files in batches of 25 and sends unprocessed items again', async () => {
    const files = Array.from({ length: 30 }, (_, i) => file(`f${i}`));
    ddbMock.on(PutCommand).resolves({});
    ddbMock
      .on(BatchWriteCommand)
      .resolvesOnce({
        UnprocessedItems: { [TABLE]: [{ PutRequest: { Item: { pk: 'TRANSFER#abc123', sk: 'FILE#f3' } } }] },
      })
      .resolves({});
    await createTransfer(transfer(), files);
    const sizes = ddbMock.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![TABLE]!.length);
    expect(sizes).toEqual([25, 1, 5]);
  });
});

describe('getTransfer', () => {
  it('reads consistently and strips the key attributes', async () => {
    ddbMock.on(GetCommand).resolves({
      Item: {
        pk: 'TRANSFER#abc123',
        sk: 'META',
        gsi2pk: 'SWEEP',
        entity: 'Transfer',
        slug: 'abc123',
        status: 'ready',
      },
    });
    expect(await getTransfer('abc123')).toEqual({ slug: 'abc123', status: 'ready' });
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'TRANSFER#abc123', sk: 'META' },
      ConsistentRead: true,
    });
  });

  it('treats an item whose ttl has passed as absent (DynamoDB deletes expired items late)', async () => {
    ddbMock.on(GetCommand).resolves({
      Item: { pk: 'TRANSFER#abc123', sk: 'META', slug: 'abc123', ttl: Math.floor(Date.now() / 1000) - 60 },
    });
    expect(await getTransfer('abc123')).toBeUndefined();
  });
});

describe('listFiles', () => {
  it('reads every page of the FILE# items and orders them by creation time', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ ...file('b'), createdAt: 2, pk: 'x', sk: 'FILE#b' }], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ ...file('a'), createdAt: 1, pk: 'x', sk: 'FILE#a' }] });
    expect((await listFiles('abc123')).map((f) => f.fileId)).toEqual(['a', 'b']);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': 'TRANSFER#abc123', ':p': 'FILE#' },
      ConsistentRead: true,
    });
  });
});

describe('resetFileUpload', () => {
  it('deletes the recorded parts and answers false once the file is no longer pending', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [{ partNumber: 1, etag: 'e', size: 5 }] });
    ddbMock.on(BatchWriteCommand).resolves({});
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await resetFileUpload('abc123', 'f1', 'up-2')).toBe(false);
    expect(
      ddbMock.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems![TABLE]![0]!.DeleteRequest?.Key,
    ).toEqual({ pk: 'TRANSFER#abc123', sk: expect.stringContaining('f1') });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression:
        'SET #s = :p, uploadId = :id REMOVE completeAttempt, completeLeaseUntil, completeRestarts, gsi2pk, gsi2sk, resetCode, resetMessage',
      ConditionExpression: '#s IN (:p, :c)',
      ExpressionAttributeValues: { ':p': 'pending', ':c': 'completing', ':id': 'up-2' },
    });
  });

  it('a reset by the background completion keeps its reason for the next complete call', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    ddbMock.on(UpdateCommand).resolves({});
    expect(await resetFileUpload('abc123', 'f1', 'up-3', { code: 'upload_reset', message: 'Again.' })).toBe(true);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression:
        'SET #s = :p, uploadId = :id, resetCode = :rc, resetMessage = :rm REMOVE completeAttempt, completeLeaseUntil, completeRestarts, gsi2pk, gsi2sk',
      ExpressionAttributeValues: { ':rc': 'upload_reset', ':rm': 'Again.' },
    });
  });
});

describe('setFileScan', () => {
  it('answers the scan state it replaced', async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { scanStatus: 'pending' } });
    expect(await setFileScan('abc123', 'f1', { status: 'clean', scanner: 'local', at: NOW })).toEqual({
      previous: 'pending',
    });
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toContain('scanStatus <> :i');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':i': 'infected', ':s': 'clean' });
    expect(input.ReturnValues).toBe('ALL_OLD');
  });

  it('answers undefined when the file is gone or already infected', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await setFileScan('abc123', 'f1', { status: 'clean', scanner: 'local', at: NOW })).toBeUndefined();
  });
});

describe('markSent', () => {
  it('moves uploading -> ready once, entering the list index and growing the all counter in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await markSent(transfer(), { dateSent: NOW, expiryDate: NOW + 10, fileCount: 2, totalBytes: 20 })).toBe(
      true,
    );
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(2);
    expect(items[0]!.Update).toMatchObject({
      Key: { pk: 'TRANSFER#abc123', sk: 'META' },
      ConditionExpression: '#s = :uploading',
    });
    expect(Object.values(items[0]!.Update!.ExpressionAttributeNames!)).toEqual(
      expect.arrayContaining(['gsi1pk', 'gsi3pk', 'gsi4pk', 'sweepDueAt']),
    );
    expect(items[1]!.Update).toMatchObject({
      Key: { pk: 'USER#user-1', sk: 'STATS#TRANSFERS' },
      ExpressionAttributeValues: { ':all': 1 },
    });
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('a second send (after add-files) only refreshes the totals', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    ddbMock.on(UpdateCommand).resolves({});
    expect(await markSent(transfer(), { dateSent: NOW, expiryDate: NOW + 10, fileCount: 3, totalBytes: 30 })).toBe(
      false,
    );
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression: 'SET fileCount = :n, totalBytes = :b',
      ExpressionAttributeValues: { ':n': 3, ':b': 30 },
    });
  });

  it('an anonymous transfer has no counter to move', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    await markSent(transfer({ senderId: undefined }), {
      dateSent: NOW,
      expiryDate: NOW + 10,
      fileCount: 1,
      totalBytes: 1,
    });
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toHaveLength(1);
  });
});

describe('setStatus', () => {
  it('conditions on the allowed previous states and the sweep time it read', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    expect(
      await setStatus('abc123', 'expired', { from: ['ready', 'uploading'], sweepDueAt: 50, expectedSweepDueAt: 40 }),
    ).toBe(true);
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('attribute_exists(pk) AND #s IN (:f0, :f1) AND sweepDueAt = :expDue');
    expect(input.ExpressionAttributeValues).toMatchObject({
      ':s': 'expired',
      ':f0': 'ready',
      ':f1': 'uploading',
      ':expDue': 40,
      ':due': 50,
      ':gpk': 'SWEEP',
    });
  });

  it('without a sweep time, leaves the sweep index; a lost race answers false', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await setStatus('abc123', 'deleted')).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.UpdateExpression).toBe(
      'SET #s = :s REMOVE sweepDueAt, gsi2pk, gsi2sk',
    );
  });
});

describe('changeExpiry', () => {
  const stored = {
    pk: 'TRANSFER#abc123',
    sk: 'META',
    slug: 'abc123',
    status: 'expired',
    senderId: 'user-1',
    gsi3pk: 'L',
    createdAt: NOW,
    totalDownloads: 2,
  };

  it('reads again and retries when a racing write changed the transfer, then moves it back to ready', async () => {
    ddbMock.on(GetCommand).resolves({ Item: stored });
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .resolves({});
    expect(await changeExpiry({ slug: 'abc123' }, NOW + 99)).toBe(true);
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(2);
    const items = ddbMock.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems!;
    expect(items[0]!.Update!.ExpressionAttributeValues).toMatchObject({
      ':ready': 'ready',
      ':was': 'expired',
      ':dl': 2,
    });
    // it was expired: it leaves the sender's expired counter
    expect(items[1]!.Update!.ExpressionAttributeValues).toMatchObject({ ':expired': -1 });
  });

  it('answers false for a purged, deleted or missing transfer without writing', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { ...stored, purged: true } })
      .resolvesOnce({ Item: { ...stored, status: 'deleted' } })
      .resolvesOnce({});
    for (let i = 0; i < 3; i += 1) expect(await changeExpiry({ slug: 'abc123' }, NOW)).toBe(false);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('gives up with an error after five lost races', async () => {
    ddbMock.on(GetCommand).resolves({ Item: stored });
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed']));
    await expect(changeExpiry({ slug: 'abc123' }, NOW)).rejects.toThrow('kept changing');
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(5);
  });
});

describe('markExpired', () => {
  it('moves a listed ready transfer to the ENDED list and grows the expired counter, conditioned on the due time read', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { slug: 'abc123', status: 'ready', senderId: 'user-1', gsi3pk: 'x' } });
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await markExpired('abc123', { sweepDueAt: 200, expectedSweepDueAt: 100 })).toBe(true);
    const [update, stats] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(update!.Update!.ConditionExpression).toBe('#s = :ready AND sweepDueAt = :expDue');
    expect(update!.Update!.ExpressionAttributeValues).toMatchObject({
      ':expDue': 100,
      ':due': 200,
      ':ended': expect.stringContaining('user-1'),
    });
    expect(stats!.Update!.ExpressionAttributeValues).toMatchObject({ ':expired': 1 });
  });

  it('answers false when an extension won the race, and when the transfer is not ready', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { slug: 'abc123', status: 'ready' } })
      .resolvesOnce({ Item: { slug: 'abc123', status: 'expired' } });
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed']));
    expect(await markExpired('abc123', { sweepDueAt: 2, expectedSweepDueAt: 1 })).toBe(false);
    expect(await markExpired('abc123', { sweepDueAt: 2, expectedSweepDueAt: 1 })).toBe(false);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

describe('markDeleted', () => {
  it('answers the status it had and drops both counters of an expired listed transfer', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { slug: 'abc123', status: 'expired', senderId: 'user-1', gsi3pk: 'x' } });
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await markDeleted('abc123', 500)).toBe('expired');
    const [update, stats] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(update!.Update!.UpdateExpression).toContain('REMOVE gsi1pk, gsi1sk, gsi3pk, gsi3sk, gsi4pk, gsi4sk');
    expect(update!.Update!.ExpressionAttributeValues).toMatchObject({ ':was': 'expired', ':due': 500 });
    expect(stats!.Update!.ExpressionAttributeValues).toMatchObject({ ':all': -1, ':expired': -1 });
  });

  it('a second delete changes nothing', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { slug: 'abc123', status: 'deleted' } });
    expect(await markDeleted('abc123', 500)).toBeUndefined();
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('claimZipBuild', () => {
  it('claims only a missing or failed build, or one whose lease ran out', async () => {
    ddbMock.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    const z = {
      contentHash: 'h',
      status: 'building' as const,
      key: 'z',
      startedAt: NOW,
      leaseUntil: NOW + 60_000,
      attempt: 'a1',
    };
    expect(await claimZipBuild('abc123', z, NOW)).toBe(true);
    expect(await claimZipBuild('abc123', z, NOW)).toBe(false);
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input).toMatchObject({
      Item: { leaseUntil: NOW + 60_000, attempt: 'a1' },
      ConditionExpression:
        'attribute_not_exists(pk) OR #s = :failed OR (#s = :building AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now))',
      ExpressionAttributeValues: { ':now': NOW },
    });
  });

  it('renews and finishes only for the attempt holding the record', async () => {
    ddbMock
      .on(UpdateCommand)
      .resolvesOnce({})
      .rejectsOnce(conditionFailed())
      .resolvesOnce({})
      .rejectsOnce(conditionFailed());
    expect(await renewZipLease('abc123', 'h', 'a1', NOW + 60_000)).toBe(true);
    expect(await renewZipLease('abc123', 'h', 'a0', NOW + 60_000)).toBe(false);
    expect(await finishZip('abc123', 'h', 'a1', { status: 'ready', size: 9 })).toBe(true);
    expect(await finishZip('abc123', 'h', 'a0', { status: 'ready', size: 9 })).toBe(false);
    const [renew, , finish] = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(renew).toMatchObject({
      ConditionExpression: '#s = :building AND attempt = :a',
      ExpressionAttributeValues: { ':a': 'a1', ':l': NOW + 60_000 },
    });
    expect(finish).toMatchObject({
      UpdateExpression: 'SET #s = :s, size = :v REMOVE leaseUntil',
      ConditionExpression: 'attribute_exists(pk) AND attempt = :a',
    });
  });
});

describe('listSweepDue', () => {
  it('queries the sweep index up to now and hands back the page key', async () => {
    ddbMock
      .on(QueryCommand)
      .resolves({ Items: [{ pk: 'TRANSFER#s1' }, { pk: 'TRANSFER#s2' }], LastEvaluatedKey: { pk: 'TRANSFER#s2' } });
    expect(await listSweepDue(NOW, 2)).toEqual({ slugs: ['s1', 's2'], next: { pk: 'TRANSFER#s2' } });
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi2',
      Limit: 2,
      ExpressionAttributeValues: { ':p': 'SWEEP', ':upTo': `${String(NOW).padStart(15, '0')}#~` },
    });
  });
});

describe('addFiles and setDisabled', () => {
  it('adding files writes them, then a new upload token on a transfer that still exists', async () => {
    ddbMock.on(BatchWriteCommand).resolves({});
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    await expect(addFiles('abc123', [file('f9')], 'th', NOW + 5)).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':h': 'th', ':e': NOW + 5 },
    });
  });

  it('disabling a transfer that does not exist answers false; enabling removes both marks', async () => {
    ddbMock.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});
    expect(await setDisabled('abc123', { at: NOW, reportId: 'r1' })).toBe(false);
    expect(await setDisabled('abc123', undefined)).toBe(true);
    const [disable, enable] = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(disable).toMatchObject({
      UpdateExpression: 'SET disabledAt = :at, disabledReportId = :r',
      ExpressionAttributeValues: { ':at': NOW, ':r': 'r1' },
    });
    expect(enable!.UpdateExpression).toBe('REMOVE disabledAt, disabledReportId');
  });
});
