/**
 * The scheduled expiry reminder against the local stack: the job mails recipients
 * without a download 24 h before expiry, once each (repeated and concurrent runs included), and
 * not when the sender turned the setting off. Times are moved in the table the way the sweep
 * tests do: a transfer sent two days ago that expires in 20 hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { CUSTOM_DATE_MARKER } from '../../functions/domain/expiry';
import { keys } from '../../functions/data/keys';
import { getReminder } from '../../functions/data/reminders';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import type { ReminderRunResult } from '../../functions/services/reminders';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  json,
  mailsTo,
  randomData,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';
// GET /me answers every transfer setting, defaults filled
import { DEFAULT_TRANSFER_SETTINGS } from '../../functions/domain/auth-api';

let app: LocalApp;
let owner: TestUser;
let quiet: TestUser;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'remind.owner@example.com');
  quiet = await createUser(app, 'remind.quiet@example.com');
});

afterAll(async () => {
  await app?.stop();
});

async function sendTo(user: TestUser, recipients: string[]): Promise<CreateTransferResponse> {
  const data = randomData(300);
  const res = await api(
    app,
    '/me/transfers',
    json(
      {
        sendAs: 'email',
        emailTo: recipients.map((email) => ({ email })),
        fileObjects: [{ fileName: 'deck.pdf', size: data.length }],
      },
      bearer(user),
    ),
  );
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  await uploadAll(app, t, new Map([['deck.pdf', data]]));
  expect((await completeTransfer(app, t)).status).toBe(200);
  return t;
}

/** The owner moves the expiry to `hoursLeft` from now (a custom date); the send is backdated two days. */
async function expireIn(user: TestUser, slug: string, hoursLeft: number): Promise<void> {
  const res = await api(
    app,
    '/transfers/expiry',
    json({ slug, expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: Date.now() + hoursLeft * HOUR }, bearer(user)),
  );
  expect(res.status, res.text).toBe(200);
  await dynamo().send(
    new UpdateCommand({
      TableName: app.stack.env.TABLE_NAME,
      Key: keys.transfer(slug),
      UpdateExpression: 'SET dateSent = :d',
      ExpressionAttributeValues: { ':d': Date.now() - 2 * DAY },
    }),
  );
}

async function recipientId(email: string, slug: string): Promise<string> {
  const mail = await waitForMail(app, email, new RegExp(`/downloads/${slug}/[A-Za-z0-9]{8}`));
  return new RegExp(`/downloads/${slug}/([A-Za-z0-9]{8})`).exec(mail.body.text)![1]!;
}

async function downloadAs(slug: string, email: string): Promise<void> {
  const recipient = await recipientId(email, slug);
  const view = await api(app, '/getDownload', json({ id: slug, recipient }));
  const file = await api(app, '/getDownload/file', json({ id: slug, fileId: view.json.files[0].fileId, recipient }));
  expect(file.status, file.text).toBe(200);
}

const reminders = async (email: string, slug: string) =>
  (await mailsTo(app, email)).filter(
    (m) => m.subject.startsWith('Reminder:') && m.body.text.includes(`/downloads/${slug}/`),
  );

const run = async () => (await app.gateway.runJob('expiry-reminders')) as ReminderRunResult;

describe('the scheduled expiry reminder', () => {
  let t: CreateTransferResponse;
  const to = ['sched.a@example.com', 'sched.b@example.com', 'sched.c@example.com'];

  it('is queued with the send, due 24 hours before expiry', async () => {
    t = await sendTo(owner, to);
    const r = await getReminder(t.id);
    const view = await api(app, '/getDownload', json({ id: t.id }));
    expect(r).toMatchObject({ queued: true, dueAt: (view.json.expiryDate as number) - DAY, reminded: [] });
    // Not due yet: a run now mails nobody.
    await run();
    for (const e of to) expect(await reminders(e, t.id)).toEqual([]);
  });

  it('mails only the recipients who have not downloaded, with their own link, once', async () => {
    await downloadAs(t.id, 'sched.a@example.com');
    await expireIn(owner, t.id, 20);
    const first = await run();
    expect(first.reminded).toBe(2);
    expect(await reminders('sched.a@example.com', t.id)).toEqual([]);
    for (const e of ['sched.b@example.com', 'sched.c@example.com']) {
      const mails = await reminders(e, t.id);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.body.text).toContain(`/downloads/${t.id}/${await recipientId(e, t.id)}`);
      expect(mails[0]!.body.text).toContain("You haven't downloaded these files yet.");
    }
    const r = await getReminder(t.id);
    expect(r!.queued).toBe(false);
    expect([...r!.reminded].sort()).toEqual(['sched.b@example.com', 'sched.c@example.com']);
    expect(Object.keys(r!.remindedAt).sort()).toEqual(['sched.b@example.com', 'sched.c@example.com']);

    // A second run, and a changed expiry that makes it due again, remind nobody twice.
    expect((await run()).reminded).toBe(0);
    await expireIn(owner, t.id, 18);
    expect((await getReminder(t.id))!.queued).toBe(true);
    expect((await run()).reminded).toBe(0);
    for (const e of ['sched.b@example.com', 'sched.c@example.com']) expect(await reminders(e, t.id)).toHaveLength(1);
  });

  it('two runs at once mail each recipient once', async () => {
    const recipients = Array.from({ length: 6 }, (_, i) => `both.${i}@example.com`);
    const u = await sendTo(owner, recipients);
    await expireIn(owner, u.id, 10);
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.reminded + b.reminded).toBe(recipients.length);
    for (const e of recipients) expect(await reminders(e, u.id)).toHaveLength(1);
  });

  it('a longer expiry moves the reminder: not mailed until 24 hours before the new expiry', async () => {
    const u = await sendTo(owner, ['later.one@example.com']);
    await expireIn(owner, u.id, 20);
    const month = await api(app, '/transfers/expiry', json({ slug: u.id, expirySeconds: 2_629_746 }, bearer(owner)));
    expect(month.status).toBe(200);
    expect((await getReminder(u.id))!.dueAt).toBe((month.json.expiryDate as number) - DAY);
    await run();
    expect(await reminders('later.one@example.com', u.id)).toEqual([]);
  });

  it("not when the sender's setting is off (GET /me shows it; default on)", async () => {
    const me = await api(app, '/me', { headers: bearer(quiet) });
    expect(me.json.transferSettings).toEqual({ ...DEFAULT_TRANSFER_SETTINGS, expiryReminders: true });
    const off = await api(
      app,
      '/v1/updateProfile',
      json({ transferSettings: { expiryReminders: false } }, bearer(quiet)),
    );
    expect(off.status, off.text).toBe(200);
    expect(off.json.transferSettings).toEqual({ ...DEFAULT_TRANSFER_SETTINGS, expiryReminders: false });
    expect((await api(app, '/me', { headers: bearer(quiet) })).json.transferSettings).toEqual({
      ...DEFAULT_TRANSFER_SETTINGS,
      expiryReminders: false,
    });
    const u = await sendTo(quiet, ['quiet.r@example.com']);
    await expireIn(quiet, u.id, 20);
    await run();
    expect(await reminders('quiet.r@example.com', u.id)).toEqual([]);
    expect((await getReminder(u.id))!.queued).toBe(false);
  });

  it('a deleted transfer is reminded to nobody and its reminder goes', async () => {
    const u = await sendTo(owner, ['deleted.r@example.com']);
    await expireIn(owner, u.id, 20);
    expect((await api(app, `/transfers/${u.id}`, { method: 'DELETE', headers: bearer(owner) })).status).toBe(200);
    await run();
    expect(await reminders('deleted.r@example.com', u.id)).toEqual([]);
    expect(await getReminder(u.id)).toBeUndefined();
  });
});
