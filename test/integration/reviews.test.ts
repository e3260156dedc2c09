/**
 * Reviews against the local stack (DynamoDB Local, s3rver, the SES inbox, a webhook receiver):
 * a signed-in sender's transfer with review on, commented on by a link visitor (unverified) and
 * a verified address, favourites and decisions, the sender's threads, replies, resolve, read and
 * close; the bell, the webhooks and the batched mail (two comments within the window: one mail);
 * the limits, the password gate, read only after close and expiry, and the review going with a
 * deleted transfer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { keys, reviewKeys } from '../../functions/data/keys';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { COMMENTS_PER_REVIEWER, REVIEW_MAIL_BATCH_MS, REVIEW_MAX_COMMENTS } from '../../functions/domain/review';
import type { RecipientReviewView, SenderReviewView } from '../../functions/domain/review-api';
import { runDueReviewMail } from '../../functions/services/review-mail';
import { sweepExpired } from '../../functions/services/expiry-sweep';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, guestToken, json, mailsTo, sendFiles, type TestUser } from '../helpers/transfers';
import { eventOf, startReceiver, type ReceivedHook } from '../helpers/webhook-receiver';

let app: LocalApp;
let sender: TestUser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const FILES = new Map([
  ['frame-01.png', Buffer.from('not really a png, the extension decides the preview kind')],
  ['cut-v3.mp4', Buffer.from('a video, by its name')],
  ['brief.pdf', Buffer.from('%PDF-1.4 a brief')],
]);
const ADA = { visitorId: 'AdaVisitor000000000001', name: 'Ada (agency)' };
const REVIEWER = 'client.reviewer@example.com';

const table = () => app.stack.env.TABLE_NAME;
const fileIdOf = (t: CreateTransferResponse, name: string) => t.files.find((f) => f.fileName === name)!.fileId;
const recipient = (t: CreateTransferResponse, body: Record<string, unknown>, path = '') =>
  api(app, `/getDownload/review${path}`, json({ id: t.id, ...body }));
const asSender = (t: CreateTransferResponse, path: string, body?: unknown, method = 'POST') =>
  api(
    app,
    `/transfers/${t.id}/review${path}`,
    body === undefined ? { method, headers: bearer(sender) } : json(body, bearer(sender), method),
  );
const ofType = (type: string, transferId: string) => (h: ReceivedHook) => {
  const e = eventOf(h);
  return e.type === type && e.data.transferId === transferId;
};
const reviewMails = async () => (await mailsTo(app, sender.email)).filter((m) => /review activity/u.test(m.subject));

/** A code mailed by the review's code route, entered: the recipient session. */
async function verifyAddress(t: CreateTransferResponse, email: string, extra: Record<string, unknown> = {}) {
  const seen = (await mailsTo(app, email)).length;
  const asked = await recipient(t, { email, lang: 'en', ...extra }, '/code');
  expect(asked.status, asked.text).toBe(202);
  const deadline = Date.now() + 60_000;
  let code: string | undefined;
  while (!code) {
    const mails = await mailsTo(app, email);
    if (mails.length > seen) code = /\b(\d{5})\b/u.exec(mails[mails.length - 1]!.body.text)![1]!;
    else if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
    else await new Promise((r) => setTimeout(r, 100));
  }
  const checked = await recipient(t, { email, code, ...extra }, '/verify');
  expect(checked.status, checked.text).toBe(200);
  expect(checked.json.email).toBe(email);
  return checked.json.access as string;
}

beforeAll(async () => {
  app = await startTestApp();
  sender = await createUser(app, 'creative.sender@example.com');
  receiver = await startReceiver();
  const hook = await api(
    app,
    '/webhooks',
    json(
      { url: receiver.url, events: ['review.commented', 'review.approved'], description: 'reviews' },
      bearer(sender),
    ),
  );
  expect(hook.status, hook.text).toBe(201);
});

afterAll(async () => {
  await receiver?.close();
  await app?.stop();
});

describe('creating a transfer with review on', () => {
  it('a signed-in sender gets review on; the download answer says so', async () => {
    const t = await sendFiles(app, sender, FILES, { review: true });
    const view = await api(app, '/getDownload', json({ id: t.id }));
    expect(view.status, view.text).toBe(200);
    expect(view.json.review).toEqual({ enabled: true, writable: true });
    const plain = await sendFiles(app, sender, FILES);
    expect((await api(app, '/getDownload', json({ id: plain.id }))).json.review).toBeUndefined();
    const off = await recipient(plain, {});
    expect([off.status, off.json.error.code]).toEqual([409, 'review_off']);
  });

  it("a guest's create with review is 400 review_needs_account", async () => {
    const token = await guestToken(app, 'guest.reviewer@example.com');
    const res = await api(
      app,
      '/transfers',
      json(
        {
          senderEmail: 'guest.reviewer@example.com',
          sendAs: 'email',
          emailTo: [{ email: 'guest.friend@example.com' }],
          review: true,
          fileObjects: [{ fileName: 'a.txt', size: 5 }],
        },
        { 'x-sender-token': token },
      ),
    );
    expect([res.status, res.json.error.code]).toEqual([400, 'review_needs_account']);
  });
});

describe('the whole flow: recipients, the sender, the bell, webhooks and one batched mail', () => {
  let t: CreateTransferResponse;
  let session: string;
  let thread: string;

  beforeAll(async () => {
    t = await sendFiles(app, sender, FILES, { review: true });
  });

  it('shows recipients the files with their preview kinds and no comments yet', async () => {
    const res = await recipient(t, { visitorId: ADA.visitorId });
    expect(res.status, res.text).toBe(200);
    const view = res.json as RecipientReviewView;
    expect(view.settings).toEqual({ enabled: true, writable: true });
    expect(view.files.map((f) => [f.fileName, f.previewKind, f.version]).sort()).toEqual([
      ['brief.pdf', 'pdf', 1],
      ['cut-v3.mp4', 'video', 1],
      ['frame-01.png', 'image', 1],
    ]);
    expect([view.comments, view.favourites, view.decisions, view.you]).toEqual([[], [], [], null]);
  });

  it('takes a visitor comment pinned to a point of the image, shown as unverified', async () => {
    const res = await recipient(
      t,
      {
        visitor: ADA,
        fileId: fileIdOf(t, 'frame-01.png'),
        anchor: { kind: 'point', x: 0.25, y: 0.75 },
        body: 'Logo too small',
      },
      '/comment',
    );
    expect(res.status, res.text).toBe(201);
    expect(res.json.comment).toMatchObject({
      fileId: fileIdOf(t, 'frame-01.png'),
      version: 1,
      author: { kind: 'visitor', name: 'Ada (agency)' },
      body: 'Logo too small',
      anchor: { kind: 'point', x: 0.25, y: 0.75 },
    });
    thread = res.json.comment.commentId as string;
  });

  it('refuses an anchor of the wrong kind, a write by no one, an over-long comment', async () => {
    const image = fileIdOf(t, 'frame-01.png');
    const wrong = await recipient(
      t,
      { visitor: ADA, fileId: image, anchor: { kind: 'time', seconds: 3 }, body: 'x' },
      '/comment',
    );
    expect([wrong.status, wrong.json.error.code]).toEqual([400, 'invalid_anchor']);
    const anonymous = await recipient(t, { fileId: image, body: 'who am I' }, '/comment');
    expect([anonymous.status, anonymous.json.error.code]).toEqual([401, 'reviewer_required']);
    const long = await recipient(t, { visitor: ADA, fileId: image, body: 'a'.repeat(2001) }, '/comment');
    expect([long.status, long.json.error.code, long.json.error.details.issues[0].code]).toEqual([
      400,
      'invalid_request',
      'invalid_comment',
    ]);
    const forgedSession = await recipient(t, { access: 'f'.repeat(43), fileId: image, body: 'x' }, '/comment');
    expect([forgedSession.status, forgedSession.json.error.code]).toEqual([401, 'reviewer_required']);
  });

  it('a mailed code makes the author a verified address; replies need a thread of the same file and no anchor', async () => {
    session = await verifyAddress(t, REVIEWER);
    const reply = await recipient(
      t,
      { access: session, fileId: fileIdOf(t, 'frame-01.png'), parentId: thread, body: 'Agreed, and the blue is off' },
      '/comment',
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.comment).toMatchObject({ parentId: thread, author: { kind: 'verified', email: REVIEWER } });
    expect(reply.json.comment.anchor).toBeUndefined();
    const otherFile = await recipient(
      t,
      { access: session, fileId: fileIdOf(t, 'brief.pdf'), parentId: thread, body: 'wrong file' },
      '/comment',
    );
    expect([otherFile.status, otherFile.json.error.code]).toEqual([404, 'not_found']);
    const anchored = await recipient(
      t,
      {
        access: session,
        fileId: fileIdOf(t, 'frame-01.png'),
        parentId: thread,
        anchor: { kind: 'point', x: 0, y: 0 },
        body: 'x',
      },
      '/comment',
    );
    expect([anchored.status, anchored.json.error.code]).toEqual([400, 'invalid_anchor']);
    const atTime = await recipient(
      t,
      {
        access: session,
        fileId: fileIdOf(t, 'cut-v3.mp4'),
        anchor: { kind: 'time', seconds: 12.3456 },
        body: 'Cut here',
      },
      '/comment',
    );
    expect(atTime.status, atTime.text).toBe(201);
    expect(atTime.json.comment.anchor).toEqual({ kind: 'time', seconds: 12.346 });
  });

  it('favourites and decisions are the reviewer’s own', async () => {
    const pdf = fileIdOf(t, 'brief.pdf');
    const fav = await recipient(t, { visitor: ADA, fileId: pdf, favourite: true }, '/favourite');
    expect([fav.status, fav.json]).toEqual([200, { fileId: pdf, favourite: true }]);
    const approve = await recipient(
      t,
      { access: session, subject: fileIdOf(t, 'frame-01.png'), decision: 'approved' },
      '/decision',
    );
    expect(approve.status, approve.text).toBe(200);
    expect(approve.json.decision).toMatchObject({ reviewer: `email:${REVIEWER}`, decision: 'approved', version: 1 });
    const changes = await recipient(
      t,
      { visitor: ADA, subject: 'transfer', decision: 'changes_requested', note: 'Please send a darker cut' },
      '/decision',
    );
    expect(changes.status, changes.text).toBe(200);

    const adaView = (await recipient(t, { visitorId: ADA.visitorId })).json as RecipientReviewView;
    expect(adaView.favourites).toEqual([pdf]);
    expect(adaView.decisions.map((d) => [d.subject, d.decision])).toEqual([['transfer', 'changes_requested']]);
    expect(adaView.comments).toHaveLength(3);
    const verifiedView = (await recipient(t, { access: session })).json as RecipientReviewView;
    expect(verifiedView.you).toEqual({ kind: 'verified', email: REVIEWER });
    expect(verifiedView.favourites).toEqual([]);
    expect(verifiedView.decisions.map((d) => d.decision)).toEqual(['approved']);
  });

  it('the same session opens the download page of a transfer with verified recipients', async () => {
    const guarded = await sendFiles(app, sender, FILES, {
      review: true,
      sendAs: 'email',
      emailTo: [{ email: REVIEWER }],
      verifiedRecipients: {},
    });
    expect((await recipient(guarded, {})).status).toBe(401);
    const notListed = await recipient(guarded, { email: 'stranger@example.com', lang: 'en' }, '/code');
    expect([notListed.status, notListed.json.error.code]).toEqual([403, 'address_not_allowed']);
    const token = await verifyAddress(guarded, REVIEWER, {});
    const page = await api(app, '/getDownload', json({ id: guarded.id, access: token }));
    expect(page.status, page.text).toBe(200);
    expect(page.json.review).toEqual({ enabled: true, writable: true });
  });

  it('the sender sees every thread, decision and favourite, and the counts on the dashboard list', async () => {
    const res = await asSender(t, '', undefined, 'GET');
    expect(res.status, res.text).toBe(200);
    const view = res.json as SenderReviewView;
    expect(view.comments.map((c) => c.author.kind)).toEqual(['visitor', 'verified', 'verified']);
    expect(view.decisions).toHaveLength(2);
    expect(view.favourites).toEqual({ [fileIdOf(t, 'brief.pdf')]: ['Ada (agency)'] });
    expect(view.summary).toEqual({
      approved: 1,
      changesRequested: 1,
      unread: 3,
      transferApproved: false,
      closed: false,
    });
    expect(view.readAt).toBe(0);
    const list = await api(app, '/getQs?filter=all', { headers: bearer(sender) });
    const row = (list.json.allDocs as { slug: string; review?: unknown }[]).find((r) => r.slug === t.id);
    expect(row?.review).toEqual(view.summary);
    const detail = await api(app, `/getQs?slug=${t.id}`, { headers: bearer(sender) });
    expect(detail.json.reviewSettings).toEqual({ enabled: true, writable: true });
  });

  it('the sender replies, resolves and re-opens a thread, and marks the review read', async () => {
    const reply = await asSender(t, '/comments', {
      fileId: fileIdOf(t, 'frame-01.png'),
      parentId: thread,
      body: 'On it',
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.comment.author).toEqual({ kind: 'sender' });
    const resolved = await asSender(t, `/threads/${thread}`, { resolved: true });
    expect(resolved.status, resolved.text).toBe(200);
    expect(typeof resolved.json.comment.resolvedAt).toBe('number');
    const reply2 = reply.json.comment.commentId as string;
    const notAThread = await asSender(t, `/threads/${reply2}`, { resolved: true });
    expect([notAThread.status, notAThread.json.error.code]).toEqual([404, 'not_found']);
    const reopened = await asSender(t, `/threads/${thread}`, { resolved: false });
    expect(reopened.json.comment.resolvedAt).toBeUndefined();
    expect((await asSender(t, '/read')).status).toBe(204);
    const after = (await asSender(t, '', undefined, 'GET')).json as SenderReviewView;
    expect(after.summary.unread).toBe(0);
    expect(after.readAt).toBeGreaterThan(0);
  });

  it('the bell holds one notification for the burst, counting what it held', async () => {
    const res = await api(app, '/notifications', json({}, bearer(sender)));
    const review = (res.json.notifications as { kind?: string; slug: string; review?: unknown }[]).filter(
      (n) => n.kind === 'review' && n.slug === t.id,
    );
    expect(review).toHaveLength(1);
    expect(review[0]!.review).toEqual({ comments: 3, approvals: 1, changesRequested: 1 });
  });

  it('webhooks: review.commented per comment (and for the changes asked with a note), review.approved per approval', async () => {
    const approved = await receiver.waitFor(ofType('review.approved', t.id));
    expect(eventOf(approved).data).toMatchObject({
      subject: fileIdOf(t, 'frame-01.png'),
      fileName: 'frame-01.png',
      author: { kind: 'verified', email: REVIEWER },
    });
    const note = await receiver.waitFor(
      (h) => ofType('review.commented', t.id)(h) && eventOf(h).data.decision === 'changes_requested',
    );
    expect(eventOf(note).data).toMatchObject({ fileId: null, commentId: null, body: 'Please send a darker cut' });
    const deadline = Date.now() + 60_000;
    const comments = () =>
      receiver.received.filter((h) => ofType('review.commented', t.id)(h) && eventOf(h).data.commentId);
    while (comments().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(comments().map((h) => eventOf(h).data.author)).toHaveLength(3);
    // the sender's own reply is no event
    expect(comments().some((h) => (eventOf(h).data.body as string) === 'On it')).toBe(false);
  });

  it('the batched mail: everything so far in one mail, then nothing new until the window has passed', async () => {
    expect(await reviewMails()).toEqual([]);
    await app.gateway.runJob('review-mail');
    const first = await reviewMails();
    expect(first).toHaveLength(1);
    expect(first[0]!.body.text).toContain('Logo too small');
    expect(first[0]!.body.text).toContain('Cut here');
    expect(first[0]!.body.text).toContain('Ada (agency) (unverified)');
    expect(first[0]!.body.text).toContain('Please send a darker cut');
    expect(first[0]!.body.text).not.toContain('On it');

    const later = await recipient(
      t,
      { visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), anchor: { kind: 'page', page: 2 }, body: 'Typo on page 2' },
      '/comment',
    );
    expect(later.status, later.text).toBe(201);
    await app.gateway.runJob('review-mail');
    expect(await reviewMails()).toHaveLength(1);
    // the window after the last mail has passed: the next one holds only what came since
    await runDueReviewMail({ now: Date.now() + REVIEW_MAIL_BATCH_MS + 60_000 });
    const second = await reviewMails();
    expect(second).toHaveLength(2);
    const newest = second.find((m) => m.body.text.includes('Typo on page 2'));
    expect(newest?.body.text).not.toContain('Logo too small');
  });

  it('a closed review is read only for everyone; re-opening lets writes in again', async () => {
    const closed = await asSender(t, '', { closed: true }, 'PATCH');
    expect(closed.status, closed.text).toBe(200);
    expect(closed.json).toMatchObject({ enabled: true, writable: false });
    const refused = await recipient(t, { visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), body: 'late' }, '/comment');
    expect([refused.status, refused.json.error.code]).toEqual([409, 'review_closed']);
    const decision = await recipient(t, { visitor: ADA, subject: 'transfer', decision: 'approved' }, '/decision');
    expect([decision.status, decision.json.error.code]).toEqual([409, 'review_closed']);
    const senderReply = await asSender(t, '/comments', { fileId: fileIdOf(t, 'brief.pdf'), body: 'closed?' });
    expect([senderReply.status, senderReply.json.error.code]).toEqual([409, 'review_closed']);
    expect(((await recipient(t, {})).json as RecipientReviewView).settings.writable).toBe(false);
    expect((await asSender(t, '', undefined, 'GET')).json.summary.closed).toBe(true);
    const reopened = await asSender(t, '', { closed: false }, 'PATCH');
    expect(reopened.json).toEqual({ enabled: true, writable: true });
    const again = await recipient(t, { visitor: ADA, subject: 'transfer', decision: 'approved' }, '/decision');
    expect(again.status, again.text).toBe(200);
    const summary = ((await asSender(t, '', undefined, 'GET')).json as SenderReviewView).summary;
    // Ada's later approval replaced her request for changes
    expect(summary).toMatchObject({ approved: 2, changesRequested: 0, transferApproved: true, closed: false });
  });
});

describe('limits, the password gate, expiry and deletion', () => {
  it('per reviewer: past COMMENTS_PER_REVIEWER in the window is 429 rate_limited; another reviewer still writes', async () => {
    const t = await sendFiles(app, sender, FILES, { review: true });
    const file = fileIdOf(t, 'brief.pdf');
    const busy = { visitorId: 'BusyVisitor00000000001', name: 'Busy' };
    for (let i = 0; i < COMMENTS_PER_REVIEWER.limit; i += 1) {
      const ok = await recipient(t, { visitor: busy, fileId: file, body: `note ${i}` }, '/comment');
      expect(ok.status, ok.text).toBe(201);
    }
    const over = await recipient(t, { visitor: busy, fileId: file, body: 'one too many' }, '/comment');
    expect([over.status, over.json.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await recipient(t, { visitor: ADA, fileId: file, body: 'still heard' }, '/comment');
    expect(other.status, other.text).toBe(201);
  });

  it('a review holding REVIEW_MAX_COMMENTS takes no more (409 review_full)', async () => {
    const t = await sendFiles(app, sender, FILES, { review: true });
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.transfer(t.id),
        UpdateExpression: 'SET reviewComments = :n',
        ExpressionAttributeValues: { ':n': REVIEW_MAX_COMMENTS },
      }),
    );
    const full = await recipient(t, { visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), body: 'one more' }, '/comment');
    expect([full.status, full.json.error.code]).toEqual([409, 'review_full']);
  });

  it('a password-protected transfer shows nothing of its review before it is unlocked', async () => {
    const t = await sendFiles(app, sender, FILES, { review: true, password: 'Review-Lock-42' });
    const seeded = await recipient(
      t,
      { password: 'Review-Lock-42', visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), body: 'secret remark' },
      '/comment',
    );
    expect(seeded.status, seeded.text).toBe(201);
    for (const body of [{}, { password: 'wrong' }]) {
      const res = await recipient(t, body);
      expect(res.status).toBe(401);
      expect(res.text).not.toContain('secret remark');
      expect(res.text).not.toContain('brief.pdf');
    }
    const page = await api(app, '/getDownload', json({ id: t.id }));
    expect(page.status).toBe(401);
    expect(page.json.review).toBeUndefined();
    const open = await recipient(t, { password: 'Review-Lock-42' });
    expect(open.status).toBe(200);
    expect((open.json as RecipientReviewView).comments.map((c) => c.body)).toEqual(['secret remark']);
  });

  it('after expiry: recipients read but cannot write; the sender still reads it, read only', async () => {
    const t = await sendFiles(app, sender, FILES, { review: true });
    const c = await recipient(t, { visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), body: 'before expiry' }, '/comment');
    expect(c.status).toBe(201);
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.transfer(t.id),
        UpdateExpression: 'SET expiryDate = :t',
        ExpressionAttributeValues: { ':t': Date.now() - 60_000 },
      }),
    );
    const read = await recipient(t, {});
    expect(read.status, read.text).toBe(200);
    expect((read.json as RecipientReviewView).settings.writable).toBe(false);
    const write = await recipient(t, { visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), body: 'too late' }, '/comment');
    expect([write.status, write.json.error.code]).toEqual([409, 'review_closed']);
    const mine = await asSender(t, '', undefined, 'GET');
    expect(mine.status, mine.text).toBe(200);
    expect((mine.json as SenderReviewView).settings.writable).toBe(false);
    expect((mine.json as SenderReviewView).comments.map((x) => x.body)).toEqual(['before expiry']);
    const reopen = await asSender(t, '', { closed: false }, 'PATCH');
    expect([reopen.status, reopen.json.error.code]).toEqual([409, 'review_closed']);
    // the download page itself still says the transfer expired
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(410);
  });

  it('deleting the transfer hides its review at once and deletes it at the sweep’s second look', async () => {
    const t = await sendFiles(app, sender, FILES, { review: true });
    await recipient(t, { visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), body: 'to be deleted' }, '/comment');
    await recipient(t, { visitor: ADA, fileId: fileIdOf(t, 'brief.pdf'), favourite: true }, '/favourite');
    const del = await api(app, '/deleteTransfer', json({ slug: t.id }, bearer(sender)));
    expect(del.status, del.text).toBe(200);
    // from the delete on, the review answers like the link: 404
    const gone = await recipient(t, {});
    expect([gone.status, gone.json.error.code]).toEqual([404, 'transfer_not_found']);
    expect((await asSender(t, '', undefined, 'GET')).status).toBe(404);
    // its items go at the sweep's second look, an hour later
    await sweepExpired({ now: Date.now() + 2 * 3_600_000 });
    const left = await dynamo().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': keys.transfer(t.id).pk, ':p': reviewKeys.prefix },
      }),
    );
    expect(left.Items).toEqual([]);
  });
});
