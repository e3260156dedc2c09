/**
 * Custom domains and sender email domains against the real local stack and its DNS
 * server: the claim stays pending until the CNAME and the ownership TXT are really answered
 * over UDP by the local DNS server, then links and mail use `{customDomain}/w/{slug}`; a sender
 * domain's three DKIM CNAMEs verify it and transfer mail comes From it (read from the SES store).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import type { DomainSettings } from '../../functions/domain/domains-api';
import type { SessionUser } from '../../functions/domain/auth-api';
import { putSenderProfile } from '../../functions/data/users';
import { getUserDomain } from '../../functions/data/custom-domains';
import { runDomainJob } from '../../functions/services/domains';
import { FIRST_CHECK_DELAY_MS } from '../../functions/domain/custom-domains';
import { allStackBuckets, api, startTestApp } from '../helpers/local-app';
import { customOriginsOf } from '../../functions/domain/bucket-cors';
import { localS3Client } from '../../scripts/local/s3';
import { bucketCorsRules } from '../../functions/services/bucket-cors';
import {
  bearer,
  createUser,
  json,
  mailsTo,
  randomData,
  sendFiles,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

const APP_ORIGIN = 'http://127.0.0.1:5999';
const HOST = 'files.acme.test';
const MAIL_DOMAIN = 'mail.acme.test';

let app: LocalApp;
let pro: TestUser;
let rival: TestUser;
let member: TestUser;
let free: TestUser;
let business: TestUser;

const settings = async (u: TestUser) => (await api(app, '/domains', { headers: bearer(u) })).json as DomainSettings;
const claim = (u: TestUser, domain: unknown) => api(app, '/domains/custom', json({ domain }, bearer(u), 'PUT'));
const checkNow = (u: TestUser) => api(app, '/domains/custom/check', { method: 'POST', headers: bearer(u) });
const remove = (u: TestUser) => api(app, '/domains/custom', { method: 'DELETE', headers: bearer(u) });
const CUSTOM_ORIGIN = `http://${HOST}:5999`;
/** this file's buckets, every region's (set once the stack runs) */
let ALL_BUCKETS: string[] = [];
/** What the browser asks S3 before a cross-origin PUT of a part from a page on `origin`. */
const preflight = (bucket: string, origin: string) =>
  fetch(`${app.stack.urls.s3}/${bucket}/t/some-key?partNumber=1&uploadId=x`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'PUT',
      'Access-Control-Request-Headers': 'content-type',
    },
  });
const customOrigins = async (bucket: string) =>
  customOriginsOf(await bucketCorsRules(localS3Client(app.stack.urls.s3), bucket));

beforeAll(async () => {
  app = await startTestApp(APP_ORIGIN);
  ALL_BUCKETS = allStackBuckets(app.stack);
  [pro, rival, free, business] = await Promise.all([
    createUser(app, 'owner@acme.test', 'pro'),
    createUser(app, 'rival@example.com', 'business'),
    createUser(app, 'free.domain@example.com', 'free'),
    createUser(app, 'biz@acme.test', 'business'),
  ]);
  member = await createUser(app, 'member@acme.test', 'pro');
  await putSenderProfile({
    userId: member.sub,
    email: member.email,
    role: 'pro',
    isTeamMember: true,
    parentAdminId: pro.sub,
  });
}, 300_000);

afterAll(async () => {
  await app?.stop();
});

describe('custom link domain', () => {
  it('is pending until the CNAME and the ownership TXT are answered by DNS, then verified', async () => {
    const added = await claim(pro, ' Files.ACME.test. ');
    expect(added.status, added.text).toBe(200);
    const d = (added.json as DomainSettings).customDomain!;
    expect(d).toMatchObject({ typedDomain: HOST, domain_status: 'pending', origin: `http://${HOST}:5999` });
    const cname = d.records.find((r) => r.type === 'CNAME')!;
    const txt = d.records.find((r) => r.type === 'TXT')!;
    expect(cname.name).toBe(HOST);
    expect(txt.name).toBe(`_sendbridge.${HOST}`);
    expect(txt.value).toMatch(/^sendbridge-verify=[A-Za-z0-9_-]{32}$/u);
    expect((added.json as DomainSettings).customDomainOption).toBe('standard');

    // Nothing in DNS yet: both records missing.
    // Until verified, S3 refuses uploads from a page on the host (the app origin's are fine).
    expect((await preflight(ALL_BUCKETS[0]!, CUSTOM_ORIGIN)).status).toBe(403);
    expect((await preflight(ALL_BUCKETS[0]!, APP_ORIGIN)).status).toBe(200);

    const none = await checkNow(pro);
    expect(none.status, none.text).toBe(200);
    expect((none.json as DomainSettings).customDomain).toMatchObject({
      domain_status: 'pending',
      problems: [
        { record: 'cname', state: 'missing' },
        { record: 'txt', state: 'missing' },
      ],
    });

    // The CNAME right, the TXT another token: stays pending, naming the wrong TXT.
    app.stack.dns.add({ name: HOST, type: 'CNAME', value: cname.value });
    app.stack.dns.add({ name: txt.name, type: 'TXT', value: 'sendbridge-verify=not-the-token' });
    const wrong = (await checkNow(pro)).json as DomainSettings;
    expect(wrong.customDomain).toMatchObject({
      domain_status: 'pending',
      problems: [{ record: 'txt', state: 'wrong', found: 'sendbridge-verify=not-the-token' }],
    });

    app.stack.dns.remove(txt.name, 'TXT');
    app.stack.dns.add({ name: txt.name, type: 'TXT', value: txt.value });
    const ok = (await checkNow(pro)).json as DomainSettings;
    expect(ok.customDomain).toMatchObject({ domain_status: 'verified', problems: [] });
    expect(ok.customDomainOption).toBe('custom');
    const me = (await api(app, '/me', { headers: bearer(pro) })).json as SessionUser;
    expect(me.customDomainOption).toBe('custom');

    // Served on the host (its tenant made): every region's buckets accept the host's uploads.
    for (const bucket of ALL_BUCKETS) {
      expect(await customOrigins(bucket), bucket).toEqual([CUSTOM_ORIGIN]);
      const res = await preflight(bucket, CUSTOM_ORIGIN);
      expect(res.status, bucket).toBe(200);
      // s3rver answers '*' where S3 echoes the origin: either lets the page read the answer.
      expect([CUSTOM_ORIGIN, '*']).toContain(res.headers.get('access-control-allow-origin'));
      expect((await preflight(bucket, APP_ORIGIN)).status, `${bucket} app origin kept`).toBe(200);
    }
  });

  it('puts the link-mode link, the dashboard link and the recipient mail on the custom domain', async () => {
    const link = await sendFiles(app, pro, new Map([['plan.pdf', randomData(32)]]));
    expect(link.link).toBe(`http://${HOST}:5999/w/${link.id}`);
    const detail = await api(app, `/getQs?slug=${link.id}`, { headers: bearer(pro) });
    expect(detail.json.link, detail.text).toBe(`http://${HOST}:5999/w/${link.id}`);

    const mailed = await sendFiles(app, pro, new Map([['brief.pdf', randomData(32)]]), {
      sendAs: 'email',
      emailTo: [{ email: 'client@example.com' }],
    });
    const mail = await waitForMail(app, 'client@example.com', new RegExp(mailed.id));
    expect(mail.body.text).toContain(`http://${HOST}:5999/downloads/${mailed.id}/`);
    expect(mail.body.text).not.toContain(`${APP_ORIGIN}/downloads/`);
    // No sender domain: the product's address, with the sender's name when there is one.
    expect(mail.from).toContain('no-reply@sendbridge.local');

    // A team member's links are their admin's domain.
    const theirs = await sendFiles(app, member, new Map([['m.txt', randomData(8)]]));
    expect(theirs.link).toBe(`http://${HOST}:5999/w/${theirs.id}`);
  });

  it('refuses the host to another account (409) and bad host names (400)', async () => {
    const taken = await claim(rival, HOST);
    expect(taken.status, taken.text).toBe(409);
    expect(taken.json.error.code).toBe('domain_taken');
    const again = await claim(pro, 'other.acme.test');
    expect(again.json.error?.code, again.text).toBe('domain_already_set');

    const bad: [unknown, string][] = [
      ['203.0.113.7', 'domain_ip'],
      ['0x7f.1', 'domain_ip'],
      ['[::1]', 'domain_ip'],
      ['*.acme.test', 'domain_wildcard'],
      ['https://files.rival.test/path', 'domain_port_or_path'],
      ['files.rival.test:8443', 'domain_port_or_path'],
      [`${['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(60)).join('.')}.test`, 'domain_too_long'],
      [`${'x'.repeat(64)}.test`, 'domain_too_long'],
      ['edge.sendbridge.localhost', 'domain_invalid'],
      ['localhost', 'domain_invalid'],
      ['under_score.test', 'domain_invalid'],
    ];
    for (const [domain, code] of bad) {
      const res = await claim(rival, domain);
      expect(res.status, `${String(domain)}: ${res.text}`).toBe(400);
      expect(res.json.error.code, String(domain)).toBe(code);
    }
    const wrongType = await claim(rival, 42);
    expect(wrongType.status).toBe(400);
  });

  it('refuses team members and plans without custom domains (403)', async () => {
    for (const call of [
      () => settings(member),
      () => claim(member, 'm.acme.test').then((r) => r.json),
      () => checkNow(member).then((r) => r.json),
    ]) {
      expect(((await call()) as { error?: { code: string } }).error?.code).toBe('team_member_forbidden');
    }
    const res = await claim(free, 'free.example.net');
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('custom_domain_not_in_plan');
    expect((await settings(free)).plan).toEqual({ customDomain: false, emailDomain: false });
  });

  it('releases the claim on removal: links go back to the app origin and another account may claim the host', async () => {
    const res = await remove(pro);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ customDomain: null, customDomainOption: 'standard' });
    const link = await sendFiles(app, pro, new Map([['after.txt', randomData(8)]]));
    expect(link.link).toBe(`${APP_ORIGIN}/w/${link.id}`);
    // The buckets no longer accept the released host's origin; the app's still work.
    for (const bucket of ALL_BUCKETS) {
      expect(await customOrigins(bucket), bucket).toEqual([]);
      expect((await preflight(bucket, CUSTOM_ORIGIN)).status, bucket).toBe(403);
      expect((await preflight(bucket, APP_ORIGIN)).status, bucket).toBe(200);
    }
    const taken = await claim(rival, HOST);
    expect(taken.status, taken.text).toBe(200);
    expect((taken.json as DomainSettings).customDomain?.domain_status).toBe('pending');
  });
});

describe('the scheduled check', () => {
  it('checks a pending claim when due, backs off while its records are missing, and verifies it once they answer', async () => {
    const host = 'share.rival.test';
    await remove(rival);
    const added = (await claim(rival, host)).json as DomainSettings;
    const created = added.customDomain!.createdAt;
    // Not due yet: nothing checked.
    expect((await runDomainJob(created + 1_000)).checked).toBe(0);
    const first = await runDomainJob(created + FIRST_CHECK_DELAY_MS + 1);
    expect(first.checked).toBeGreaterThanOrEqual(1);
    const after = (await getUserDomain(rival.sub))!;
    expect(after).toMatchObject({ status: 'pending', failedChecks: 1 });
    expect(after.nextCheckAt).toBe(created + FIRST_CHECK_DELAY_MS + 1 + 2 * FIRST_CHECK_DELAY_MS);

    for (const r of added.customDomain!.records) app.stack.dns.add({ name: r.name, type: r.type, value: r.value });
    expect((await runDomainJob(after.nextCheckAt! - 1)).checked).toBe(0);
    const due = await runDomainJob(after.nextCheckAt!);
    expect(due.verified).toBe(1);
    expect((await settings(rival)).customDomain?.domain_status).toBe('verified');
  });
});

describe('sender email domain', () => {
  it('verifies the three DKIM CNAMEs in DNS, then transfer mail comes from the domain', async () => {
    const added = await api(app, '/domains/email', json({ domain: MAIL_DOMAIN }, bearer(business), 'PUT'));
    expect(added.status, added.text).toBe(200);
    const e = (added.json as DomainSettings).emailDomain!;
    expect(e.pmDomain).toEqual({ ID: MAIL_DOMAIN, DKIMUpdateStatus: 'PENDING' });
    expect(e.records).toHaveLength(3);
    for (const r of e.records) {
      expect(r.type).toBe('CNAME');
      expect(r.name).toMatch(new RegExp(`^[a-z2-7]{32}\\._domainkey\\.${MAIL_DOMAIN.replace(/\./gu, '\\.')}$`, 'u'));
      expect(r.value).toBe(`${r.name.split('.')[0]}.dkim.amazonses.com`);
    }

    // Until verified: the product's address with the sender's name.
    await putSenderProfile({ userId: business.sub, email: business.email, role: 'business', fullName: 'Bea Business' });
    const before = await sendFiles(app, business, new Map([['a.txt', randomData(8)]]), {
      sendAs: 'email',
      emailTo: [{ email: 'reader@example.com' }],
    });
    expect((await waitForMail(app, 'reader@example.com', new RegExp(before.id))).from).toMatch(
      /Bea Business.*no-reply@sendbridge\.local/u,
    );

    // Two of three records: still pending.
    app.stack.dns.add({ name: e.records[0]!.name, type: 'CNAME', value: e.records[0]!.value });
    app.stack.dns.add({ name: e.records[1]!.name, type: 'CNAME', value: e.records[1]!.value });
    const partial = await api(app, '/domains/email/check', { method: 'POST', headers: bearer(business) });
    expect((partial.json as DomainSettings).emailDomain?.pmDomain.DKIMUpdateStatus, partial.text).toBe('PENDING');
    app.stack.dns.add({ name: e.records[2]!.name, type: 'CNAME', value: e.records[2]!.value });
    const verified = await api(app, '/domains/email/check', { method: 'POST', headers: bearer(business) });
    expect((verified.json as DomainSettings).emailDomain?.pmDomain.DKIMUpdateStatus).toBe('SUCCESS');

    const after = await sendFiles(app, business, new Map([['b.txt', randomData(8)]]), {
      sendAs: 'email',
      emailTo: [{ email: 'reader@example.com' }],
    });
    const mail = await waitForMail(app, 'reader@example.com', new RegExp(after.id));
    expect(mail.from).toMatch(/Bea Business.*no-reply@mail\.acme\.test/u);

    // POST /transfers/emailSend (resend) goes from the domain too.
    const resend = await api(app, '/transfers/emailSend', json({ slug: after.id }, bearer(business)));
    expect(resend.status, resend.text).toBe(200);
    const mails = (await mailsTo(app, 'reader@example.com')).filter((m) => m.body.text.includes(after.id));
    expect(mails.length).toBeGreaterThanOrEqual(2);
    expect(mails.every((m) => m.from.includes('no-reply@mail.acme.test'))).toBe(true);

    const taken = await api(app, '/domains/email', json({ domain: MAIL_DOMAIN }, bearer(rival), 'PUT'));
    expect(taken.json.error?.code, taken.text).toBe('email_domain_taken');

    const removed = await api(app, '/domains/email', { method: 'DELETE', headers: bearer(business) });
    expect(removed.json).toMatchObject({ emailDomain: null });
  });

  it('is refused below business (403) with a stable code', async () => {
    const res = await api(app, '/domains/email', json({ domain: 'mail.owner.test' }, bearer(pro), 'PUT'));
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('email_domain_not_in_plan');
  });
});
