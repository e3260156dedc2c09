/** The expiry reminders job (functions/jobs/expiry-reminders.ts) with the table's and SES's clients mocked. */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ddbMock, serviceError, TABLE, useUnitEnv } from '../../helpers/aws-mock';
import { lambdaContext } from '../../helpers/events';
import { keys } from '../../../functions/data/keys';
import { handler } from '../../../functions/jobs/expiry-reminders';

useUnitEnv();

const ses = mockClient(SESv2Client);
const event = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} } as never;
const now = Date.now();
const SLUG = 'Rem0001';
const DUE = now - 60_000;
/** An invocation with minutes left (the job stops when under 15 s remain). */
const ctx = () => ({ ...lambdaContext(), getRemainingTimeInMillis: () => 600_000 });

const transfer = {
  ...keys.transfer(SLUG),
  entity: 'Transfer',
  slug: SLUG,
  status: 'ready',
  sendAs: 'email',
  region: 'hongkong',
  anon: false,
  senderId: 'u1',
  senderEmail: 'sender@example.com',
  lang: 'en',
  // expires in 20 h: inside the last day, so the reminder is due
  expiryDate: now + 20 * 3_600_000,
  dateSent: now - 5 * 86_400_000,
  recipients: [
    { email: 'ann@example.com', recipientId: 'r-ann' },
    { email: 'bob@example.com', recipientId: 'r-bob' },
  ],
  totalDownloads: 1,
};

/** Every UpdateCommand's input whose expression starts with `prefix`. */
const updates = (prefix: string) =>
  ddbMock
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((i) => String(i.UpdateExpression).startsWith(prefix));

beforeEach(() => {
  ddbMock.reset();
  ses.reset();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(QueryCommand).resolves({ Items: [] });
  ddbMock.on(BatchGetCommand).resolves({ Responses: {} });
  ddbMock.on(UpdateCommand).resolves({ Attributes: { runs: 1, lastRunAt: now } });
  ddbMock.on(QueryCommand, { IndexName: 'gsi2' }).resolves({ Items: [{ slug: SLUG }] });
  ddbMock
    .on(GetCommand, { Key: keys.reminder(SLUG) })
    .resolves({ Item: { ...keys.reminder(SLUG), slug: SLUG, dueAt: DUE, ...keys.reminderIndex(DUE, SLUG) } });
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: transfer });
  // Ann downloaded with her own link: only Bob is reminded
  ddbMock
    .on(QueryCommand, {
      ExpressionAttributeValues: { ':pk': keys.transfer(SLUG).pk, ':p': keys.downloadPrefix } as never,
    })
    .resolves({ Items: [{ receiverEmail: 'Ann@Example.com' }] });
});

describe('expiry reminders job', () => {
  it('claims each recipient without a download, mails them their own link, notes it, takes the reminder out of the queue and records the run', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });

    expect(await handler(event, ctx())).toEqual({ examined: 1, reminded: 1, closed: 0, moved: 0, failed: 0 });

    const due = ddbMock.commandCalls(QueryCommand).find((c) => c.args[0].input.IndexName === 'gsi2')!.args[0].input;
    expect(due).toMatchObject({
      TableName: TABLE,
      KeyConditionExpression: 'gsi2pk = :p AND gsi2sk <= :upTo',
      ExpressionAttributeValues: { ':p': keys.reminderPartition },
    });
    const [claim] = updates('ADD reminded');
    expect(claim).toMatchObject({
      Key: keys.reminder(SLUG),
      ConditionExpression: 'attribute_exists(pk) AND NOT contains(reminded, :email)',
      ExpressionAttributeValues: { ':email': 'bob@example.com' },
    });
    expect(updates('ADD reminded')).toHaveLength(1);

    const sent = ses.commandCalls(SendEmailCommand).map((c) => c.args[0].input);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.Destination).toEqual({ ToAddresses: ['bob@example.com'] });
    expect(sent[0]!.ReplyToAddresses).toEqual(['sender@example.com']);
    expect(sent[0]!.Content!.Simple!.Body!.Text!.Data).toContain(`/downloads/${SLUG}/r-bob`);

    expect(updates('SET remindedAt.')[0]).toMatchObject({
      Key: keys.reminder(SLUG),
      ExpressionAttributeNames: { '#e0': 'bob@example.com' },
    });
    expect(updates('REMOVE gsi2pk, gsi2sk')[0]).toMatchObject({
      Key: keys.reminder(SLUG),
      ConditionExpression: 'dueAt = :d',
      ExpressionAttributeValues: { ':d': DUE },
    });
    expect(updates('SET entity = :e, jobName')[0]).toMatchObject({ Key: keys.jobRun('expiry-reminders') });
    expect(updates('DELETE reminded')).toHaveLength(0);
  });

  it('SES throttling: the recipient is given back and the reminder stays queued, so the next run mails them', async () => {
    ses.on(SendEmailCommand).rejects(serviceError('TooManyRequestsException', 'Maximum sending rate exceeded.', 429));

    expect(await handler(event, ctx())).toEqual({ examined: 1, reminded: 0, closed: 0, moved: 0, failed: 0 });

    expect(updates('ADD reminded')).toHaveLength(1);
    const [release] = updates('DELETE reminded');
    expect(release).toMatchObject({
      Key: keys.reminder(SLUG),
      ExpressionAttributeValues: { ':one': new Set(['bob@example.com']) },
    });
    expect(updates('REMOVE gsi2pk, gsi2sk')).toHaveLength(0);
    expect(updates('SET remindedAt.')).toHaveLength(0);
    expect(updates('SET entity = :e, jobName')).toHaveLength(1);
  });

  it('a recipient another run claimed already (failed condition) is not mailed twice', async () => {
    ddbMock
      .on(UpdateCommand, { UpdateExpression: 'ADD reminded :one' })
      .rejects(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }));
    expect(await handler(event, ctx())).toMatchObject({ examined: 1, reminded: 0, failed: 0 });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    // nobody left to mail: the reminder leaves the queue
    expect(updates('REMOVE gsi2pk, gsi2sk')).toHaveLength(1);
  });

  it('a throttled read of one reminder is counted failed and left queued; the run still ends and is recorded', async () => {
    ddbMock
      .on(GetCommand, { Key: keys.reminder(SLUG) })
      .rejects(serviceError('ProvisionedThroughputExceededException', 'throttled'));
    expect(await handler(event, ctx())).toMatchObject({ examined: 1, failed: 1, reminded: 0 });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(updates('REMOVE gsi2pk, gsi2sk')).toHaveLength(0);
    expect(updates('SET entity = :e, jobName')).toHaveLength(1);
  });
});
