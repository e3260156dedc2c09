import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import { TEXTS } from '../../functions/domain/texts';
import { GB, MB } from '../../functions/domain/units';
import { putSenderProfile } from '../../functions/data/users';
import type { AuthResponse } from '../../functions/domain/auth-api';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { api, startTestApp, viaCloudFront } from '../helpers/local-app';
import {
  assertMayTry,
  delayAfter,
  recordFailure,
  recordSuccess,
  type FailurePolicy,
} from '../../functions/services/failure-throttle';
import { bearer, createUser, json, mailsTo, waitForMail } from '../helpers/transfers';

let app: LocalApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.stop();
});

function cookieOf(headers: Headers): string | undefined {
  return headers.getSetCookie().find((c) => c.startsWith('sb_refresh='));
}

async function codeFor(email: string, since = 0): Promise<string> {
  const mail = await waitForMail(app, email, /\b\d{5}\b/);
  expect(mail.at ?? 0).toBeGreaterThanOrEqual(since);
  return /\b(\d{5})\b/.exec(mail.body.text)![1]!;
}

describe('registration, login, refresh and logout', () => {
  const email = 'new.user@example.com';
  let registrationToken: string;
  let refresh: string;

  it('step 1 mails a code; step 2 refuses a wrong code with the spec text and accepts the right one', async () => {
    const start = await api(app, '/newsignupverify', json({ email: 'New.User@Example.com' }));
    expect(start.status, start.text).toBe(202);
    const code = await codeFor(email);
    const wrong = await api(app, '/newsignupverify/check', json({ email, code: code === '00000' ? '11111' : '00000' }));
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.message).toBe(TEXTS.incorrectCode);
    const right = await api(app, '/newsignupverify/check', json({ email, code }));
    expect(right.status, right.text).toBe(200);
    registrationToken = right.json.registrationToken as string;
    // A proven address at step 1 goes straight to step 3.
    const again = await api(app, '/newsignupverify', json({ email, registrationToken }));
    expect(again.status).toBe(200);
    expect(again.json.verified).toBe(true);
  });

  it('step 3 refuses a short password with the spec text, then creates the account and signs in', async () => {
    const short = await api(
      app,
      '/signup2',
      json({ registrationToken, email, fullName: 'New User', password: '12345' }),
    );
    expect(short.status).toBe(400);
    expect(short.text).toContain(TEXTS.signupPasswordTooShort);
    const res = await api(
      app,
      '/signup2',
      json({
        registrationToken,
        email,
        fullName: 'New User',
        password: 'secret123',
        company: 'Acme',
        role: 'pro',
        lang: 'en',
        fingerprint: { language: 'en-US', timezone: 'UTC' },
      }),
    );
    expect(res.status, res.text).toBe(201);
    const auth = res.json as AuthResponse;
    expect(auth.user).toMatchObject({
      email,
      fullName: 'New User',
      role: 'free',
      chosenRole: 'pro',
      status: 'unpaid',
      loginCount: 1,
    });
    const cookie = cookieOf(res.headers)!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\/api/);
    expect(res.text).not.toContain(cookie.split(';')[0]!.split('=')[1]!);
    const me = await api(app, '/me', { headers: { authorization: `Bearer ${auth.accessToken}` } });
    expect(me.status).toBe(200);
    expect(me.json.email).toBe(email);
  });

  it('the registration proof is single use and the address is taken (409 with the spec text)', async () => {
    const taken = await api(app, '/newsignupverify', json({ email }));
    expect(taken.status).toBe(409);
    expect(taken.json.error.message).toBe(TEXTS.emailTaken);
    const reuse = await api(app, '/signup2', json({ registrationToken, email, fullName: 'X', password: 'secret123' }));
    expect([403, 409]).toContain(reuse.status);
  });

  it('login: wrong password is Auth Failed, right one sets the refresh cookie and counts the login', async () => {
    const wrong = await api(app, '/combinedAuth', json({ email, password: 'nope-nope' }));
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.message).toBe(TEXTS.authFailed);
    const unknown = await api(app, '/combinedAuth', json({ email: 'nobody@example.com', password: 'nope-nope' }));
    expect(unknown.status).toBe(401);
    expect(unknown.json.error.message).toBe(TEXTS.authFailed);
    const ok = await api(app, '/combinedAuth', json({ email, password: 'secret123' }));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.user.loginCount).toBe(2);
    refresh = cookieOf(ok.headers)!.split(';')[0]!;
  });

  it('refresh renews with the cookie; logout revokes it and clears the cookie; refresh then fails', async () => {
    const renewed = await api(app, '/refreshToken', { headers: { cookie: refresh } });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.json.user.email).toBe(email);
    expect((await api(app, '/refreshToken')).status).toBe(401);
    const out = await api(app, '/logout', { headers: { cookie: refresh } });
    expect(out.status).toBe(200);
    expect(cookieOf(out.headers)).toMatch(/Max-Age=0/);
    expect((await api(app, '/refreshToken', { headers: { cookie: refresh } })).status).toBe(401);
  });
});

describe('wrong passwords cannot lock an account out', () => {
  const viewer = (address: string) => viaCloudFront(app, address);

  it('makes the guessing client wait, longer each time, while the right password from another client gets in', async () => {
    const email = 'lockout-target@example.com';
    await createUser(app, email, 'free');
    const attacker = viewer('203.0.113.7');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1)
      statuses.push((await api(app, '/combinedAuth', json({ email, password: `wrong-${i}` }, attacker))).status);
    // Five free failures, then the sixth try waits.
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const waiting = await api(app, '/combinedAuth', json({ email, password: 'secret123' }, attacker));
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(30);

    const owner = await api(app, '/combinedAuth', json({ email, password: 'secret123' }, viewer('198.51.100.20')));
    expect(owner.status, owner.text).toBe(200);
  });
});

describe('the failure throttle against the table', () => {
  const policy: FailurePolicy = {
    scope: `test-${Date.now()}`,
    freeFailures: 2,
    firstDelaySeconds: 60,
    maxDelaySeconds: 240,
    ceiling: { limit: 4, windowSeconds: 3600 },
  };
  const wait = 'wait {minutes}';
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (err: { statusCode?: number; headers?: Record<string, string> }) => err,
    );

  it('doubles the wait after each failure past the free ones, up to the maximum', async () => {
    const t0 = Date.UTC(2026, 10, 24, 12, 0, 0);
    const subject = 'doubling@example.com';
    await recordFailure(policy, subject, 'a', t0);
    await recordFailure(policy, subject, 'a', t0);
    const third = await refusal(assertMayTry(policy, subject, 'a', wait, t0 + 1000));
    expect(third).toMatchObject({ statusCode: 429, headers: { 'retry-after': '59' } });
    expect(await refusal(assertMayTry(policy, subject, 'a', wait, t0 + 61_000))).toBeUndefined();
    await recordFailure(policy, subject, 'a', t0 + 61_000);
    expect(await refusal(assertMayTry(policy, subject, 'a', wait, t0 + 61_000 + 119_000))).toMatchObject({
      statusCode: 429,
    });
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => delayAfter(policy, n))).toEqual([0, 0, 60, 120, 240, 240, 240]);
  });

  it('past the ceiling of one subject, refuses clients with failures and lets a clean client try', async () => {
    const t0 = Date.UTC(2026, 10, 24, 13, 0, 0);
    const subject = 'ceiling@example.com';
    for (const client of ['b1', 'b2', 'b3', 'b4']) await recordFailure(policy, subject, client, t0);
    expect(await refusal(assertMayTry(policy, subject, 'b1', wait, t0 + 1000))).toMatchObject({ statusCode: 429 });
    expect(await refusal(assertMayTry(policy, subject, 'clean', wait, t0 + 1000))).toBeUndefined();
    await recordSuccess(policy, subject, 'b1');
    expect(await refusal(assertMayTry(policy, subject, 'b1', wait, t0 + 1000))).toBeUndefined();
  });
});

describe('password reset', () => {
  const email = 'forgetful@example.com';

  beforeAll(async () => {
    await createUser(app, email, 'free');
  });

  it('answers the same neutral message for known and unknown addresses, mailing only the known one', async () => {
    const unknown = await api(app, '/resetPasswordLink', json({ email: 'ghost@example.com' }));
    expect(unknown.status).toBe(202);
    expect(unknown.json.message).toBe(TEXTS.resetLinkSent);
    const known = await api(app, '/resetPasswordLink', json({ email }));
    expect(known.status).toBe(202);
    expect(known.json).toEqual(unknown.json);
    await waitForMail(app, email, /\/updatepassword\?t=/);
    expect(await mailsTo(app, 'ghost@example.com')).toHaveLength(0);
  });

  it('the mailed link checks as 202, sets the password once, and then no longer works', async () => {
    const mail = await waitForMail(app, email, /\/updatepassword\?t=/);
    const token = /\/updatepassword\?t=([A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
    expect((await api(app, '/passTokenCheck', json({ token }))).status).toBe(202);
    expect((await api(app, '/resetPassword', json({ token, password: 'brand-new-pass' }))).status).toBe(200);
    expect((await api(app, '/passTokenCheck', json({ token }))).status).toBe(410);
    expect((await api(app, '/resetPassword', json({ token, password: 'another-pass' }))).status).toBe(410);
    expect((await api(app, '/combinedAuth', json({ email, password: 'secret123' }))).status).toBe(401);
    expect((await api(app, '/combinedAuth', json({ email, password: 'brand-new-pass' }))).status).toBe(200);
  });
});

describe('plan limits on the server', () => {
  async function create(user: { accessToken: string }, size: number) {
    return api(
      app,
      '/me/transfers',
      json(
        { sendAs: 'link', fileObjects: [{ fileName: 'big.bin', size }] },
        { authorization: `Bearer ${user.accessToken}` },
      ),
    );
  }

  it('20 concurrent sends at the storage limit never exceed it', async () => {
    const user = await createUser(app, 'near-full@example.com', 'personal');
    await putSenderProfile({ userId: user.sub, email: user.email, role: 'personal', storageUsed: 45 * GB });
    const results = await Promise.all(Array.from({ length: 20 }, () => create(user, 1 * GB)));
    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 403);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(refused[0]!.json.error.code).toBe('storage_full');
    expect(refused[0]!.json.error.message).toContain(TEXTS.storageFull);
    const usage = await api(app, '/folderSize', { method: 'POST', headers: bearer(user) });
    expect(usage.json).toEqual({ size: 50 * GB, limit: 50 * GB, state: 'full' });
    const me = await api(app, '/me', { headers: bearer(user) });
    expect(me.json.blocked).toBe('storage_full');

    // Cancelling an unsent transfer gives its bytes back.
    const t = ok[0]!.json as CreateTransferResponse;
    await api(app, `/transfers/${t.id}/cancel`, { method: 'POST', headers: { 'x-upload-token': t.uploadToken } });
    const after = await api(app, '/folderSize', { method: 'POST', headers: bearer(user) });
    expect(after.json.size).toBe(49 * GB);
    expect(after.json.state).toBe('warning');
  });

  it('the 11th free transfer in a month is refused with the spec text', async () => {
    const user = await createUser(app, 'free.sender@example.com', 'free');
    for (let i = 0; i < 10; i += 1) expect((await create(user, 1 * MB)).status).toBe(201);
    const eleventh = await create(user, 1 * MB);
    expect(eleventh.status).toBe(403);
    expect(eleventh.json.error.code).toBe('over_transfer_limit');
    expect(eleventh.json.error.message).toBe("Your Free plan is limited to 10 transfers. You're 1 over your limit.");
    const me = await api(app, '/me', { headers: bearer(user) });
    expect(me.json).toMatchObject({
      thisMonthsTransfers: 10,
      monthlyTransferLimit: 10,
      blocked: 'over_transfer_limit',
    });
  });

  it('a free user may not pick a 1-month expiry; a pro user may', async () => {
    const free = await createUser(app, 'free.expiry@example.com', 'free');
    const pro = await createUser(app, 'pro.expiry@example.com', 'pro');
    const body = { sendAs: 'link', expirySeconds: 2629746, fileObjects: [{ fileName: 'a.txt', size: 5 }] };
    const refused = await api(app, '/me/transfers', json(body, bearer(free)));
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('expiry_not_allowed');
    const allowed = await api(app, '/me/transfers', json(body, bearer(pro)));
    expect(allowed.status).toBe(201);
  });
});

describe('own data only', () => {
  it('profile edits touch only the caller, and a picture must be their own upload', async () => {
    const a = await createUser(app, 'alice@example.com', 'pro');
    const b = await createUser(app, 'bob@example.com', 'pro');
    const up = await api(app, '/me/images', json({ kind: 'profile', contentType: 'image/png', size: 68 }, bearer(a)));
    expect(up.status, up.text).toBe(200);
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
        '1f15c4890000000d49444154789c6300010000050001' +
        '0d0a2db40000000049454e44ae426082',
      'hex',
    );
    const put = await fetch(up.json.url as string, {
      method: 'PUT',
      headers: up.json.headers as Record<string, string>,
      body: png,
    });
    expect(put.status).toBe(200);
    const stolen = await api(app, '/v1/updateProfile', json({ profilePicKey: up.json.key }, bearer(b)));
    expect(stolen.status).toBe(400);
    const own = await api(
      app,
      '/v1/updateProfile',
      json({ profilePicKey: up.json.key, greetingName: 'Al' }, bearer(a)),
    );
    expect(own.status, own.text).toBe(200);
    expect(own.json.greetingName).toBe('Al');
    expect(own.json.profilePic).toMatch(/^http/);
    expect((await api(app, '/me', { headers: bearer(b) })).json.greetingName).toBeUndefined();
    expect(
      (await api(app, '/me/images', json({ kind: 'profile', contentType: 'text/html', size: 10 }, bearer(a)))).status,
    ).toBe(400);
    expect((await api(app, '/me')).status).toBe(401);
  });

  it('contacts come from sends, deduplicated, and only the sender sees them', async () => {
    const a = await createUser(app, 'carol@example.com', 'pro');
    const b = await createUser(app, 'dave@example.com', 'pro');
    const send = {
      sendAs: 'email',
      emailTo: [{ email: 'Friend@Example.com' }, { email: 'friend@example.com' }, { email: 'other@example.com' }],
      fileObjects: [{ fileName: 'a.txt', size: 5 }],
    };
    expect((await api(app, '/me/transfers', json(send, bearer(a)))).status).toBe(201);
    const mine = await api(app, '/quicksend2', { method: 'POST', headers: bearer(a) });
    expect((mine.json.contacts as { email: string }[]).map((c) => c.email).sort()).toEqual([
      'friend@example.com',
      'other@example.com',
    ]);
    const theirs = await api(app, '/quicksend2', { method: 'POST', headers: bearer(b) });
    expect(theirs.json.contacts).toEqual([]);
  });

  it('feedback needs a message and is stored', async () => {
    const a = await createUser(app, 'erin@example.com', 'free');
    expect((await api(app, '/feedback', json({ message: '  ' }, bearer(a)))).status).toBe(400);
    expect(
      (await api(app, '/feedback', json({ message: 'Lovely', rating: 'Fantastic', route: '/dash' }, bearer(a)))).status,
    ).toBe(201);
  });
});
