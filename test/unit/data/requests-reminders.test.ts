import { beforeEach, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  createRequest,
  finishUpload,
  getRequest,
  listUploads,
  listUserRequests,
  removeUpload,
  updateRequest,
  type RequestRecord,
  type RequestUploadRecord,
} from '../../../functions/data/requests';
import {
  claimRecipient,
  downloadedBy,
  getReminder,
  recordReminded,
  releaseRecipient,
  requeueReminder,
  unqueueReminder,
} from '../../../functions/data/reminders';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;
const request: RequestRecord = {
  id: 'r1',
  ownerId: 'u1',
  title: 'T',
  message: '',
  dueDate: null,
  rules: {},
  closed: false,
  createdAt: NOW,
  updatedAt: NOW,
  uploadCount: 0,
  totalBytes: 0,
  lastUploadAt: null,
};
const upload: RequestUploadRecord = {
  requestId: 'r1',
  slug: 's1',
  senderName: 'V',
  senderEmail: 'v@example.com',
  message: '',
  uploadedAt: NOW,
  expiryDate: NOW + 1000,
  fileCount: 2,
  totalBytes: 300,
};

describe('requests', () => {
  it('a new request takes a free id only, listed under its owner, without null fields', async () => {
    ddbMock.on(PutCommand).resolvesOnce({}).rejectsOnce(conditionFailed());
    expect(await createRequest(request)).toBe(true);
    expect(await createRequest(request)).toBe(false);
    const put = ddbMock.commandCalls(PutCommand)[0]!.args[0].input;
    expect(put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(put.Item).toMatchObject({ ...keys.request('r1'), ...keys.userRequests('u1', NOW, 'r1'), entity: 'Request' });
    expect(put.Item).not.toHaveProperty('dueDate');
  });

  it('an item of another entity under the key is no request', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { ...request, entity: 'Other' } });
    expect(await getRequest('r1')).toBeUndefined();
  });

  it("the owner's list reads newest first, page after page, up to the limit", async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ ...request, id: 'a' }], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ ...request, id: 'b' }] });
    expect((await listUserRequests('u1', 2)).map((r) => r.id)).toEqual(['a', 'b']);
    expect(ddbMock.commandCalls(QueryCommand).map((c) => c.args[0].input.Limit)).toEqual([2, 1]);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      ScanIndexForward: false,
    });
  });

  it("an edit is the owner's only: another user's or a gone request answers undefined", async () => {
    ddbMock
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: { ...request, closed: true } })
      .rejectsOnce(conditionFailed());
    expect(await updateRequest('r1', 'u1', { closed: true, dueDate: null }, NOW)).toMatchObject({ closed: true });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      UpdateExpression: 'SET updatedAt = :now, #closed = :closed REMOVE #dueDate',
      ConditionExpression: 'attribute_exists(pk) AND ownerId = :owner',
      ExpressionAttributeValues: { ':owner': 'u1' },
    });
    expect(await updateRequest('r1', 'u2', { closed: true }, NOW)).toBeUndefined();
  });

  it('a finished upload moves its transfer to ready, writes the upload and counts it in one transaction, once', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok']));
    expect(await finishUpload({ slug: 's1', requestId: 'r1' }, upload)).toBe(true);
    expect(await finishUpload({ slug: 's1', requestId: 'r1' }, upload)).toBe(false);
    const [t, u, r] = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(t!.Update).toMatchObject({
      Key: keys.transfer('s1'),
      ConditionExpression: '#s = :uploading AND requestId = :rid',
      ExpressionAttributeValues: { ':rid': 'r1' },
    });
    expect(Object.values(t!.Update!.ExpressionAttributeNames!)).not.toContain('gsi1pk');
    expect(u!.Put).toMatchObject({
      Item: keys.requestUpload('r1', 's1'),
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(r!.Update!.ExpressionAttributeValues).toEqual({ ':at': NOW, ':one': 1, ':b': 300 });
  });

  it('a transfer that is not a request upload is refused before any write', async () => {
    await expect(finishUpload({ slug: 's1' }, upload)).rejects.toThrow('not a request upload');
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('uploads list newest first up to the limit', async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { ...upload, slug: 'a', uploadedAt: 1 },
        { ...upload, slug: 'b', uploadedAt: 3 },
        { ...upload, slug: 'c', uploadedAt: 2 },
      ],
    });
    expect((await listUploads('r1', 2)).map((x) => x.slug)).toEqual(['b', 'c']);
  });

  it('removing an upload drops the counters by its bytes, once', async () => {
    ddbMock.on(GetCommand).resolvesOnce({ Item: upload }).resolvesOnce({});
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await removeUpload('r1', 's1')).toBe(true);
    expect(
      ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![1]!.Update!.ExpressionAttributeValues,
    ).toEqual({ ':minus': -1, ':b': -300 });
    expect(await removeUpload('r1', 's1')).toBe(false);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

describe('reminders', () => {
  it('a recipient is claimed for the scheduled reminder once, and can be given back', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed()).resolves({});
    expect(await claimRecipient('s1', 'r@example.com')).toBe(true);
    expect(await claimRecipient('s1', 'r@example.com')).toBe(false);
    await releaseRecipient('s1', 'r@example.com');
    const [claim, , release] = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(claim).toMatchObject({
      Key: keys.reminder('s1'),
      ConditionExpression: 'attribute_exists(pk) AND NOT contains(reminded, :email)',
      ExpressionAttributeValues: { ':one': new Set(['r@example.com']) },
    });
    expect(release!.UpdateExpression).toBe('DELETE reminded :one');
  });

  it('reads the reminded set and per-address times', async () => {
    ddbMock.on(GetCommand).resolves({
      Item: {
        dueAt: 5,
        gsi2pk: 'REMIND',
        reminded: new Set(['a@example.com']),
        remindedAt: { 'a@example.com': 4, bad: 'x' },
      },
    });
    expect(await getReminder('s1')).toEqual({
      slug: 's1',
      dueAt: 5,
      queued: true,
      reminded: ['a@example.com'],
      remindedAt: { 'a@example.com': 4 },
    });
  });

  it('unqueueing and requeueing lose to a reminder moved since it was read', async () => {
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await unqueueReminder('s1', 5)).toBe(false);
    expect(await requeueReminder('s1', 5, 9)).toBe(false);
    const [un, re] = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(un).toMatchObject({ ConditionExpression: 'dueAt = :d', ExpressionAttributeValues: { ':d': 5 } });
    expect(re).toMatchObject({
      ConditionExpression: 'dueAt = :expected',
      ExpressionAttributeValues: { ':expected': 5, ':d': 9, ':gsk': keys.reminderIndex(9, 's1').gsi2sk },
    });
  });

  it('throttling is not a lost race', async () => {
    ddbMock.on(UpdateCommand).rejects(throttled());
    await expect(unqueueReminder('s1', 5)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });

  it('notes reminder times 100 addresses per update, addresses as attribute names', async () => {
    ddbMock.on(UpdateCommand).resolves({});
    const emails = Array.from({ length: 150 }, (_, i) => `r${i}@example.com`);
    await recordReminded('s1', emails, NOW);
    const calls = ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(3);
    expect(calls[0]!.UpdateExpression).toContain('if_not_exists(remindedAt, :empty)');
    expect(Object.keys(calls[1]!.ExpressionAttributeNames!)).toHaveLength(100);
    expect(calls[2]!.ExpressionAttributeNames).toMatchObject({ '#e0': 'r100@example.com' });
    await recordReminded('s1', [], NOW);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(3);
  });

  it('downloadedBy reads every page of downloads and lower-cases the addresses', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ receiverEmail: 'A@Example.com' }, {}], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ receiverEmail: 'b@example.com' }] });
    expect([...(await downloadedBy('s1'))]).toEqual(['a@example.com', 'b@example.com']);
  });
});
