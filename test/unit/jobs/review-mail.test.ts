/**
 * The review mail job (functions/jobs/review-mail.ts, services/review-mail.ts) with the table's
 * and SES's clients mocked; the review's rules of domain/review.ts the services count with; the
 * mail's template in every language.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { conditionFailed, ddbMock, useUnitEnv } from '../../helpers/aws-mock';
import { lambdaContext } from '../../helpers/events';
import { keys, reviewKeys } from '../../../functions/data/keys';
import { handler } from '../../../functions/jobs/review-mail';
import { reviewActivityMail } from '../../../functions/adapters/mail/templates';
import { MAIL_LANGUAGES } from '../../../functions/domain/transfer-api';
import {
  decisionCounts,
  normaliseAnchor,
  reviewSettingsState,
  reviewSummaryOf,
  senderReviewPath,
} from '../../../functions/domain/review';

useUnitEnv();

const ses = mockClient(SESv2Client);
const event = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} } as never;
const ctx = () => ({ ...lambdaContext(), getRemainingTimeInMillis: () => 600_000 });
const SLUG = 'Rev0001';
const now = Date.now();
const DUE = now - 30_000;
const LAST_MAIL = now - 20 * 60_000;
const SINCE = now - 5 * 60_000;

const transfer = {
  ...keys.transfer(SLUG),
  slug: SLUG,
  status: 'ready',
  region: 'hongkong',
  anon: false,
  senderId: 'u1',
  senderEmail: 'sender@example.com',
  lang: 'de',
  fileName: 'frame.png',
  expiryDate: now + 86_400_000,
  recipients: [],
  review: { enabled: true },
};
const file = {
  ...keys.transferFile(SLUG, 'F1le000001'),
  slug: SLUG,
  fileId: 'F1le000001',
  fileName: 'frame.png',
  status: 'uploaded',
  createdAt: 1,
};
const comment = (id: string, createdAt: number, body: string, author: unknown) => ({
  ...reviewKeys.comment(SLUG, id),
  commentId: id,
  fileId: 'F1le000001',
  version: 1,
  author,
  body,
  createdAt,
});

/** The claim's UpdateCommand (REMOVE of the queue keys). */
const claims = () =>
  ddbMock
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((i) => String(i.UpdateExpression).startsWith('SET lastMailAt'));

beforeEach(() => {
  ddbMock.reset();
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'm1' });
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: transfer });
  ddbMock.on(UpdateCommand).resolves({ Attributes: {} });
  // the queue answers the due marker on its first read only (a claimed one leaves it)
  let queueReads = 0;
  ddbMock
    .on(UpdateCommand, { Key: reviewKeys.mail(SLUG) })
    .resolves({ Attributes: { lastMailAt: LAST_MAIL, pendingSince: SINCE, dueAt: DUE, pendingComments: 2 } });
  ddbMock.on(QueryCommand).callsFake((input: { KeyConditionExpression?: string; IndexName?: string }) => {
    if (input.IndexName === 'gsi2') {
      queueReads += 1;
      return { Items: queueReads === 1 ? [reviewKeys.mailIndex(DUE, SLUG)] : [] };
    }
    if (String(input.KeyConditionExpression).includes('BETWEEN'))
      return {
        Items: [
          comment('0190a000-0000-7000-8000-000000000001', SINCE + 1000, 'Logo <b>too</b> small', {
            kind: 'visitor',
            name: 'Ada',
          }),
          comment('0190a000-0000-7000-8000-000000000002', SINCE + 2000, 'On it', { kind: 'sender' }),
          comment('0190a000-0000-7000-8000-000000000003', SINCE + 3000, 'Agreed', {
            kind: 'verified',
            email: 'client@example.com',
          }),
        ],
      };
    if (String(JSON.stringify(input)).includes('REVIEW#D#'))
      return {
        Items: [
          {
            subject: 'transfer',
            reviewer: 'email:client@example.com',
            author: { kind: 'verified', email: 'client@example.com' },
            decision: 'approved',
            version: 0,
            at: SINCE + 4000,
          },
          // decided before the window: mailed already
          {
            subject: 'F1le000001',
            reviewer: 'visitor:x',
            author: { kind: 'visitor', name: 'Old' },
            decision: 'changes_requested',
            version: 1,
            at: LAST_MAIL - 1000,
          },
        ],
      };
    return { Items: [file] };
  });
});

describe('the review mail job', () => {
  it('claims a due marker and mails the recipients’ activity since the last mail, in the transfer’s language', async () => {
    const result = await handler(event, ctx());
    expect(result).toMatchObject({ examined: 1, mailed: 1, failed: 0 });
    expect(claims()).toHaveLength(1);
    expect(claims()[0]).toMatchObject({
      ConditionExpression: 'dueAt = :due',
      ExpressionAttributeValues: { ':due': DUE },
    });
    const sent = ses.commandCalls(SendEmailCommand);
    expect(sent).toHaveLength(1);
    const mail = sent[0]!.args[0].input;
    expect(mail.Destination?.ToAddresses).toEqual(['sender@example.com']);
    const text = String(mail.Content?.Simple?.Body?.Text?.Data);
    // German copy: two comments, one approval; the visitor marked unverified; the sender's own reply left out
    expect(text).toContain('2 neue Kommentare');
    expect(text).toContain('1 Freigabe');
    expect(text).toContain('Ada (nicht bestätigt)');
    expect(text).toContain('client@example.com hat den ganzen Transfer freigegeben');
    expect(text).not.toContain('On it');
    expect(text).not.toContain('Old');
    expect(text).toContain('/dash?review=Rev0001');
    const html = String(mail.Content?.Simple?.Body?.Html?.Data);
    expect(html).toContain('Logo &lt;b&gt;too&lt;/b&gt; small');
  });

  it('a marker another run claimed first is left to it: no mail', async () => {
    ddbMock.on(UpdateCommand, { Key: reviewKeys.mail(SLUG) }).rejects(conditionFailed());
    const result = await handler(event, ctx());
    expect(result).toMatchObject({ examined: 1, mailed: 0 });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('a transfer whose review was turned off meanwhile gets no mail', async () => {
    ddbMock
      .on(GetCommand, { Key: keys.transfer(SLUG) })
      .resolves({ Item: { ...transfer, review: { enabled: false } } });
    const result = await handler(event, ctx());
    expect(result).toMatchObject({ examined: 1, mailed: 0, skipped: 1 });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('a failed mail is counted and logged, and the run goes on', async () => {
    ses.on(SendEmailCommand).rejects(new Error('SES is down'));
    const result = await handler(event, ctx());
    expect(result).toMatchObject({ examined: 1, mailed: 0, failed: 1 });
  });
});

describe('the review mail in every language', () => {
  it.each(MAIL_LANGUAGES)('%s: counts, the unverified mark, the link; user text escaped', (lang) => {
    const m = reviewActivityMail({
      lang,
      title: 'frame.png',
      comments: 1,
      approvals: 1,
      changesRequested: 1,
      items: [
        { kind: 'comment', who: '<script>x</script>', verified: false, fileName: 'frame.png', body: 'a'.repeat(400) },
        { kind: 'approved', who: 'client@example.com', verified: true },
        { kind: 'changes_requested', who: 'client@example.com', verified: true, fileName: 'cut.mp4', note: 'darker' },
      ],
      reviewLink: 'https://app.example.com/dash?review=Rev0001',
    });
    expect(m.subject).toContain('frame.png');
    expect(m.html).not.toContain('<script>x</script>');
    expect(m.text).toContain('https://app.example.com/dash?review=Rev0001');
    expect(m.text).toContain('darker');
    // a long comment is shortened in the mail
    expect(m.text).not.toContain('a'.repeat(400));
    for (const part of [m.subject, m.text]) expect(part).not.toMatch(/review\.\w+/u);
  });
});

describe('the review rules the services count with', () => {
  it('decisionCounts: subjects with an approval, subjects with changes asked, the transfer approved', () => {
    expect(
      decisionCounts([
        { subject: 'a', decision: 'approved' },
        { subject: 'a', decision: 'approved' },
        { subject: 'b', decision: 'changes_requested' },
        { subject: 'transfer', decision: 'approved' },
      ]),
    ).toEqual({ approved: 2, changesRequested: 1, transferApproved: true });
    expect(decisionCounts([{ subject: 'transfer', decision: 'changes_requested' }])).toEqual({
      approved: 0,
      changesRequested: 1,
      transferApproved: false,
    });
  });

  it('a time anchor keeps 3 decimals; other anchors are unchanged', () => {
    expect(normaliseAnchor({ kind: 'time', seconds: 1.23456 })).toEqual({ kind: 'time', seconds: 1.235 });
    expect(normaliseAnchor({ kind: 'page', page: 3 })).toEqual({ kind: 'page', page: 3 });
  });

  it('settings and the summary from the transfer record', () => {
    expect(reviewSettingsState({ enabled: true }, false)).toEqual({ enabled: true, writable: true });
    expect(reviewSettingsState({ enabled: true, closedAt: 5 }, false)).toEqual({
      enabled: true,
      closedAt: 5,
      writable: false,
    });
    expect(reviewSettingsState({ enabled: true }, true).writable).toBe(false);
    expect(reviewSummaryOf({ review: { enabled: true, closedAt: 1 }, reviewUnread: 4, reviewApproved: 2 })).toEqual({
      approved: 2,
      changesRequested: 0,
      unread: 4,
      transferApproved: false,
      closed: true,
    });
    expect(senderReviewPath('Ab3dE5g')).toBe('/dash?review=Ab3dE5g');
  });
});
