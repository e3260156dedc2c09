/**
 * Verified recipients against the local stack (DynamoDB Local, s3rver, the SES inbox): a pro
 * user's email send to two addresses, each recipient's mailed code and session, a forwarded
 * link refused to a third address, the sender's access list (add, remove, revoke, expiry) whose
 * changes stop open sessions at their next call, a link send limited to a domain, and a guest's send.
 */
import { listDeliveries } from '../../functions/data/deliveries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { AccessListResponse } from '../../functions/domain/recipient-access';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  guestToken,
  json,
  mailsTo,
  recipientIdsOf,
  sendFiles,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let sender: TestUser;
let other: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  sender = await createUser(app, 'verified.sender@example.com');
  other = await createUser(app, 'verified.other@example.com');
});

afterAll(async () => {
  await app?.stop();
});

const FILES = new Map([['plans/floor-plan.txt', Buffer.from('the floor plan, revision 7')]]);

const isDownloadCode = (m: { subject: string }) => /code to download files/u.test(m.subject);

/** The code of the first download-code mail to `email` after the `seen` earlier ones. */
async function codeFor(email: string, seen: number): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const mails = (await mailsTo(app, email)).filter(isDownloadCode);
    if (mails.length > seen) return /\b(\d{5})\b/u.exec(mails[mails.length - 1]!.subject)![1]!;
    if (Date.now() > deadline) throw new Error(`no download code mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Asks for a code for `email` and enters it: the session token. */
async function verify(t: { id: string }, email: string, extra: Record<string, unknown> = {}): Promise<string> {
  const seen = (await mailsTo(app, email)).filter(isDownloadCode).length;
  const asked = await api(app, '/getDownload/access/code', json({ id: t.id, email, lang: 'en', ...extra }));
  expect(asked.status, asked.text).toBe(202);
  const code = await codeFor(email, seen);
  const checked = await api(app, '/getDownload/access/verify', json({ id: t.id, email, code, ...extra }));
  expect(checked.status, checked.text).toBe(200);
  expect(checked.json.email).toBe(email);
  return checked.json.access as string;
}

const listOf = async (t: { id: string }, user = sender) => {
  const res = await api(app, '/transfers/access', json({ slug: t.id }, bearer(user)));
  expect(res.status, res.text).toBe(200);
  return res.json as AccessListResponse;
};

describe('an email send with verified recipients', () => {
  const FIRST = 'first.recipient@example.com';
  const SECOND = 'second.recipient@example.com';
  const THIRD = 'forwarded.to@example.com';
  let t: CreateTransferResponse;

  beforeAll(async () => {
    t = await sendFiles(app, sender, FILES, {
      sendAs: 'email',
      emailTo: [{ email: FIRST }, { email: SECOND }],
      verifiedRecipients: {},
    });
  });

  it('serves nothing without a verified address, even through a personal link', async () => {
    const ids = await recipientIdsOf(app, t.id);
    for (const path of ['/getDownload', '/getDownload/manifest', '/getDownload/previews', '/zip']) {
      const res = await api(app, path, json({ id: t.id }));
      expect(res.status, `${path} ${res.text}`).toBe(401);
      expect(res.json.error.code).toBe('verification_required');
    }
    const file = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId }));
    expect(file.status).toBe(401);
    // the personal link's page learns whose code it asks for
    const personal = await api(app, '/getDownload', json({ id: t.id, recipient: ids.get(FIRST) }));
    expect(personal.status).toBe(401);
    expect(personal.json.error.details).toEqual({ email: FIRST });
  });

  it('lets the first recipient download after the mailed code, and counts the download as theirs', async () => {
    const session = await verify(t, FIRST);
    const view = await api(app, '/getDownload', json({ id: t.id, access: session }));
    expect(view.status, view.text).toBe(200);
    expect(view.json.recipientEmail).toBe(FIRST);
    const file = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId, access: session }));
    expect(file.status, file.text).toBe(200);
    const bytes = await fetch(file.json.url as string);
    expect(await bytes.text()).toBe('the floor plan, revision 7');
    // counted once the storage reports the file served to the end (the deliveries job)
    await expect
      .poll(async () => (await listOf(t)).recipients.map((r) => [r.email, r.state, r.downloads]), { timeout: 30_000 })
      .toEqual([
        [FIRST, 'downloaded', 1],
        [SECOND, 'not_opened', 0],
      ]);
    expect((await listOf(t)).enabled).toBe(true);
    // the delivery, and so its receipt, names the address proven by the code
    const [delivery] = await listDeliveries(t.id);
    expect(delivery?.recipient).toEqual({ kind: 'verified', email: FIRST });
  });

  it('refuses a forwarded link to a third address, and a wrong code', async () => {
    const asked = await api(app, '/getDownload/access/code', json({ id: t.id, email: THIRD, lang: 'en' }));
    expect(asked.status, asked.text).toBe(403);
    expect(asked.json.error.code).toBe('address_not_allowed');
    const guessed = await api(app, '/getDownload/access/verify', json({ id: t.id, email: THIRD, code: '12345' }));
    expect(guessed.status).toBe(403);
    expect(guessed.json.error.code).toBe('address_not_allowed');
    expect(await mailsTo(app, THIRD)).toEqual([]);
    const wrong = await api(app, '/getDownload/access/verify', json({ id: t.id, email: SECOND, code: '00000' }));
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.code).toBe('incorrect_code');
  });

  it("keeps a personal link to its own address: another recipient's session does not open it", async () => {
    const ids = await recipientIdsOf(app, t.id);
    const first = await verify(t, FIRST);
    const res = await api(app, '/getDownload', json({ id: t.id, recipient: ids.get(SECOND), access: first }));
    expect(res.status).toBe(401);
    expect(res.json.error.details).toEqual({ email: SECOND });
    const asked = await api(
      app,
      '/getDownload/access/code',
      json({ id: t.id, email: FIRST, recipient: ids.get(SECOND), lang: 'en' }),
    );
    expect(asked.status).toBe(403);
    expect(asked.json.error.code).toBe('address_not_allowed');
  });

  it("stops the second recipient's open session at once when the sender removes them", async () => {
    const session = await verify(t, SECOND);
    expect((await api(app, '/getDownload', json({ id: t.id, access: session }))).status).toBe(200);
    const removed = await api(
      app,
      '/transfers/access/recipient',
      json({ slug: t.id, email: SECOND, action: 'remove' }, bearer(sender)),
    );
    expect(removed.status, removed.text).toBe(200);
    expect((removed.json as AccessListResponse).recipients.map((r) => r.email)).toEqual([FIRST]);
    for (const path of ['/getDownload', '/zip']) {
      const res = await api(app, path, json({ id: t.id, access: session }));
      expect(res.status).toBe(410);
      expect(res.json.error.code).toBe('recipient_removed');
      expect(res.json.error.message).toBe('The sender removed your access to these files.');
    }
    const again = await api(app, '/getDownload/access/code', json({ id: t.id, email: SECOND, lang: 'en' }));
    expect(again.status).toBe(410);
  });

  it('revokes, restores and expires one address, and adds a new one who gets the mail', async () => {
    const session = await verify(t, FIRST);
    const change = (body: Record<string, unknown>) =>
      api(app, '/transfers/access/recipient', json({ slug: t.id, email: FIRST, ...body }, bearer(sender)));
    expect((await change({ action: 'revoke' })).status).toBe(200);
    const revoked = await api(app, '/getDownload', json({ id: t.id, access: session }));
    expect(revoked.status).toBe(410);
    expect(revoked.json.error.code).toBe('recipient_revoked');
    expect((await listOf(t)).recipients[0]).toMatchObject({ email: FIRST, state: 'revoked' });
    expect((await change({ action: 'restore' })).status).toBe(200);
    expect((await api(app, '/getDownload', json({ id: t.id, access: session }))).status).toBe(200);
    const past = await change({ action: 'expiry', expiresAt: Date.now() - 1000 });
    expect(past.status).toBe(400);
    expect(past.json.error.code).toBe('invalid_expiry');

    const NEW = 'added.later@example.com';
    const added = await api(app, '/transfers/access/add', json({ slug: t.id, emails: [NEW] }, bearer(sender)));
    expect(added.status, added.text).toBe(200);
    expect(added.json.mailed).toEqual([NEW]);
    const mail = await waitForMail(app, NEW, /downloads\//u);
    const personal = /\/downloads\/[A-Za-z0-9]+\/([A-Za-z0-9]{8})/u.exec(mail.body.text)![1]!;
    const newSession = await verify(t, NEW, { recipient: personal });
    const view = await api(app, '/getDownload', json({ id: t.id, recipient: personal, access: newSession }));
    expect(view.status, view.text).toBe(200);
    expect((await listOf(t)).recipients.find((r) => r.email === NEW)).toMatchObject({ state: 'opened' });
  });

  it("is the sender's alone to read and change", async () => {
    const read = await api(app, '/transfers/access', json({ slug: t.id }, bearer(other)));
    expect(read.status).toBe(403);
    const change = await api(
      app,
      '/transfers/access/recipient',
      json({ slug: t.id, email: FIRST, action: 'remove' }, bearer(other)),
    );
    expect(change.status).toBe(403);
    expect((await listOf(t)).recipients.some((r) => r.email === FIRST)).toBe(true);
  });
});

describe('a link send limited to a domain', () => {
  it('lets any address at the domain verify (and lists it), and no one else', async () => {
    const t = await sendFiles(app, sender, FILES, { sendAs: 'link', verifiedRecipients: { domain: '@Acme.example' } });
    const outsider = await api(app, '/getDownload/access/code', json({ id: t.id, email: 'x@elsewhere.example' }));
    expect(outsider.status).toBe(403);
    const sub = await api(app, '/getDownload/access/code', json({ id: t.id, email: 'x@eu.acme.example' }));
    expect(sub.status).toBe(403);
    const session = await verify(t, 'anyone@acme.example');
    expect((await api(app, '/getDownload', json({ id: t.id, access: session }))).status).toBe(200);
    expect((await listOf(t)).recipients).toEqual([expect.objectContaining({ email: 'anyone@acme.example' })]);
  });

  it('refuses a link send that names no one', async () => {
    const res = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'a.txt', size: 3 }], verifiedRecipients: {} }, bearer(sender)),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('access_list_empty');
  });

  it('closes a link turned verified with nobody listed, until the sender adds an address', async () => {
    const t = await sendFiles(app, sender, FILES, { sendAs: 'link' });
    const on = await api(app, '/transfers/access/settings', json({ slug: t.id, enabled: true }, bearer(sender)));
    expect(on.status, on.text).toBe(200);
    expect((on.json as AccessListResponse).recipients).toEqual([]);
    const asked = await api(app, '/getDownload/access/code', json({ id: t.id, email: 'late@example.com' }));
    expect(asked.status).toBe(403);
    const added = await api(
      app,
      '/transfers/access/add',
      json({ slug: t.id, emails: ['late@example.com'] }, bearer(sender)),
    );
    expect(added.status, added.text).toBe(200);
    const session = await verify(t, 'late@example.com');
    expect((await api(app, '/getDownload', json({ id: t.id, access: session }))).status).toBe(200);
  });

  it('turns verification on after sending and off again', async () => {
    const t = await sendFiles(app, sender, FILES, { sendAs: 'link' });
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(200);
    const on = await api(
      app,
      '/transfers/access/settings',
      json({ slug: t.id, enabled: true, domain: 'acme.example' }, bearer(sender)),
    );
    expect(on.status, on.text).toBe(200);
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(401);
    const off = await api(app, '/transfers/access/settings', json({ slug: t.id, enabled: false }, bearer(sender)));
    expect(off.status).toBe(200);
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(200);
  });
});

describe('a session and its limits', () => {
  it("opens only its own transfer, stops at the address's own expiry, and comes after the password", async () => {
    const A = 'scoped.recipient@example.com';
    const one = await sendFiles(app, sender, FILES, { sendAs: 'link', verifiedRecipients: { addresses: [A] } });
    const two = await sendFiles(app, sender, FILES, {
      sendAs: 'link',
      password: 'Harbour-Lights-42',
      verifiedRecipients: { addresses: [A] },
    });
    const session = await verify(one, A);
    // the same address's session of another transfer opens nothing here
    const other = await api(app, '/getDownload', json({ id: two.id, password: 'Harbour-Lights-42', access: session }));
    expect(other.status).toBe(401);
    expect(other.json.error.code).toBe('verification_required');
    // the password first: no code is mailed to whoever lacks it
    const noPassword = await api(app, '/getDownload/access/code', json({ id: two.id, email: A }));
    expect(noPassword.status).toBe(401);
    expect(noPassword.json.error.code).toBe('password_required');
    const both = await verify(two, A, { password: 'Harbour-Lights-42' });
    expect((await api(app, '/getDownload', json({ id: two.id, access: both }))).status).toBe(401);
    expect(
      (await api(app, '/getDownload', json({ id: two.id, password: 'Harbour-Lights-42', access: both }))).status,
    ).toBe(200);

    // the address's own expiry passes (written as a day ago): its open session ends with a clear 410
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transferAccess(one.id, A),
        UpdateExpression: 'SET expiresAt = :t',
        ExpressionAttributeValues: { ':t': Date.now() - 86_400_000 },
      }),
    );
    const expired = await api(
      app,
      '/getDownload/file',
      json({ id: one.id, fileId: one.files[0]!.fileId, access: session }),
    );
    expect(expired.status).toBe(410);
    expect(expired.json.error.code).toBe('recipient_expired');
    expect((await listOf(one)).recipients).toEqual([expect.objectContaining({ email: A, state: 'expired' })]);
    // the sender gives it back: the open session works again
    const cleared = await api(
      app,
      '/transfers/access/recipient',
      json({ slug: one.id, email: A, action: 'expiry', expiresAt: null }, bearer(sender)),
    );
    expect(cleared.status, cleared.text).toBe(200);
    expect((await api(app, '/getDownload', json({ id: one.id, access: session }))).status).toBe(200);
  });
});

describe("a guest's send", () => {
  it('asks its listed addresses for their code too', async () => {
    const GUEST = 'verified.guest@example.com';
    const token = await guestToken(app, GUEST);
    const created = await api(
      app,
      '/transfers',
      json(
        {
          senderEmail: GUEST,
          emailTo: [{ email: 'guest.friend@example.com' }],
          fileObjects: [{ fileName: 'guest.txt', size: 5 }],
          verifiedRecipients: {},
        },
        { 'x-sender-token': token },
      ),
    );
    expect(created.status, created.text).toBe(201);
    const t = created.json as CreateTransferResponse;
    await uploadAll(app, t, new Map([['guest.txt', Buffer.from('hello')]]));
    expect((await completeTransfer(app, t)).status).toBe(200);
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(401);
    const session = await verify(t, 'guest.friend@example.com');
    expect((await api(app, '/getDownload', json({ id: t.id, access: session }))).status).toBe(200);
  });
});

describe("a recipient's own download limit", () => {
  it('counts a verified address on the shared link against its own limit, and its page says when it is used up', async () => {
    const A = 'own.limit.a@example.com';
    const B = 'own.limit.b@example.com';
    const t = await sendFiles(app, sender, FILES, {
      sendAs: 'email',
      emailTo: [{ email: A }, { email: B }],
      verifiedRecipients: {},
    });
    const set = await api(
      app,
      `/transfers/${t.id}/download-limit`,
      json({ limit: 1, recipient: A }, bearer(sender), 'PATCH'),
    );
    expect(set.status, set.text).toBe(200);
    // the shared link, not A's personal one: the verified address says whose limit it is
    const a = await verify(t, A);
    const file = () => api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId, access: a }));
    const first = await file();
    expect(first.status, first.text).toBe(200);
    expect(await (await fetch(first.json.url as string)).text()).toBe('the floor plan, revision 7');
    await expect.poll(async () => (await listDeliveries(t.id)).length, { timeout: 30_000 }).toBe(1);
    const view = await api(app, '/getDownload', json({ id: t.id, access: a }));
    expect(view.status, view.text).toBe(200);
    expect(view.json.limitReached).toBe(true);
    expect((await file()).json.error.code).toBe('download_limit_reached');
    // B's limit is not A's
    const b = await verify(t, B);
    const bView = await api(app, '/getDownload', json({ id: t.id, access: b }));
    expect(bView.json.limitReached).toBeUndefined();
    const bFile = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId, access: b }));
    expect(bFile.status, bFile.text).toBe(200);
  });
});
