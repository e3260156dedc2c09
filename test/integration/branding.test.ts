/**
 * Branding against the real local stack: a logo is accepted only when its stored
 * bytes are an image (SVG, HTML named .png, empty, too large and another user's key refused),
 * the download page's answer carries the sender's branding with a short-lived logo URL that
 * serves the checked image type inline, 'Powered by' is removable only on business and above,
 * team members cannot change their admin's branding, and GET /branding?host= answers only for a
 * verified custom domain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import type { ImageUploadResponse } from '../../functions/domain/auth-api';
import type { HostBranding, OwnBranding } from '../../functions/domain/branding-api';
import type { DownloadView } from '../../functions/domain/transfer-api';
import type { PublicRequestResponse } from '../../functions/domain/requests-api';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, fetchBytes, json, sendFiles, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let business: TestUser;
let pro: TestUser;
let member: TestUser;

/** A real 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
/** PNG magic followed by HTML: a polyglot a sniffing browser might render. */
const POLYGLOT = Buffer.concat([PNG.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]);

async function setProfile(user: TestUser, fields: Record<string, unknown>): Promise<void> {
  const names = Object.fromEntries(Object.keys(fields).map((k) => [`#${k}`, k]));
  const values = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`:${k}`, v]));
  await dynamo().send(
    new UpdateCommand({
      TableName: app.stack.env.TABLE_NAME,
      Key: keys.userProfile(user.sub),
      UpdateExpression: `SET ${Object.keys(fields)
        .map((k) => `#${k} = :${k}`)
        .join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/** Asks for a presigned PUT declaring `contentType` and PUTs `bytes` (whatever they are) there. */
async function upload(
  user: TestUser,
  kind: 'logo' | 'background',
  bytes: Buffer,
  contentType = 'image/png',
): Promise<string> {
  const res = await api(app, '/branding/images', json({ kind, contentType, size: bytes.length }, bearer(user)));
  expect(res.status, res.text).toBe(200);
  const up = res.json as ImageUploadResponse;
  const put = await fetch(up.url, { method: 'PUT', headers: up.headers, body: bytes as unknown as BodyInit });
  expect(put.status).toBe(200);
  return up.key;
}

const patch = (user: TestUser, body: unknown) => api(app, '/branding/me', json(body, bearer(user), 'PATCH'));

beforeAll(async () => {
  app = await startTestApp();
  [business, pro, member] = await Promise.all([
    createUser(app, 'brand.business@acme-studio.com', 'business'),
    createUser(app, 'brand.pro@example.com', 'pro'),
    createUser(app, 'brand.member@acme-studio.com', 'free'),
  ]);
  await setProfile(member, { isTeamMember: true, parentAdminID: business.sub });
  await setProfile(business, { company: 'Acme Studio' });
});

afterAll(async () => {
  await app?.stop();
});

describe('logo upload', () => {
  it("accepts PNG bytes and refuses SVG, HTML named .png, a polyglot, an empty or too large file, and another user's key", async () => {
    // Refused by their bytes, whatever the declared type.
    for (const bytes of [SVG, HTML, POLYGLOT]) {
      const key = await upload(business, 'logo', bytes);
      const res = await patch(business, { logoKey: key });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('image_content_invalid');
    }
    // SVG is not even an allowed type to ask for.
    const svgType = await api(
      app,
      '/branding/images',
      json({ kind: 'logo', contentType: 'image/svg+xml', size: SVG.length }, bearer(business)),
    );
    expect(svgType.status).toBe(400);
    // Over the logo's 2 MB: refused when asked, and when a bigger (background) upload is offered as the logo.
    const tooBig = await api(
      app,
      '/branding/images',
      json({ kind: 'logo', contentType: 'image/png', size: 2 * 1024 * 1024 + 1 }, bearer(business)),
    );
    expect(tooBig.json.error?.code).toBe('image_too_large');
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const bigKey = await upload(business, 'background', big);
    expect((await patch(business, { logoKey: bigKey })).json.error.code).toBe('image_too_large');
    // Another user's upload: forbidden, and a key outside the caller's prefix alike.
    const othersKey = await upload(pro, 'logo', PNG);
    const stolen = await patch(business, { logoKey: othersKey });
    expect(stolen.status).toBe(403);
    expect((await api(app, '/v1/updateProfile', json({ logoPicKey: othersKey }, bearer(business)))).status).toBe(403);
    // Accepted: real PNG bytes. The upload waits under staging/ (a lifecycle rule empties it),
    // the accepted copy lives under the user's own prefix.
    const key = await upload(business, 'logo', PNG);
    expect(key.startsWith(`staging/u/${business.sub}/up-logo-`), key).toBe(true);
    const ok = await patch(business, {
      logoKey: key,
      showLogoNav: true,
      accentColor: '#FFCC00',
      backgroundColor: '#102030',
    });
    expect(ok.status, ok.text).toBe(200);
    const own = ok.json as OwnBranding;
    expect(own).toMatchObject({
      editable: true,
      showLogoNav: true,
      accentColor: '#ffcc00',
      accentTextColor: '#000000',
      backgroundColor: '#102030',
      canRemovePoweredBy: true,
      companyName: 'Acme Studio',
    });
    const logo = await fetchBytes(own.logoUrl!);
    expect(logo.status).toBe(200);
    expect(logo.bytes.equals(PNG)).toBe(true);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('content-disposition')).toBe('inline');
    // The upload's own presigned PUT cannot replace the accepted logo: it lives under another key.
    expect(new URL(own.logoUrl!).pathname).not.toContain(key.split('/').pop()!);
    // A background image (up to 5 MB) by the same checks.
    const bg = await patch(business, { backgroundKey: bigKey });
    expect(bg.status, bg.text).toBe(200);
    const background = await fetchBytes((bg.json as OwnBranding).backgroundUrl!);
    expect([background.status, background.headers.get('content-type'), background.bytes.length]).toEqual([
      200,
      'image/png',
      big.length,
    ]);
    // A new logo replaces the old one, whose object is deleted.
    const next = await patch(business, { logoKey: await upload(business, 'logo', PNG) });
    expect(next.status, next.text).toBe(200);
    expect((await fetchBytes(own.logoUrl!)).status).toBe(404);
    expect((await fetchBytes((next.json as OwnBranding).logoUrl!)).status).toBe(200);
  });

  it('checks profile pictures by their bytes too', async () => {
    const up = await api(
      app,
      '/me/images',
      json({ kind: 'profile', contentType: 'image/png', size: HTML.length }, bearer(pro)),
    );
    await fetch(up.json.url as string, {
      method: 'PUT',
      headers: up.json.headers as Record<string, string>,
      body: HTML as unknown as BodyInit,
    });
    const res = await api(app, '/v1/updateProfile', json({ profilePicKey: up.json.key }, bearer(pro)));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('image_content_invalid');
  });

  it('refuses an empty object and bad colours', async () => {
    const res = await api(
      app,
      '/branding/images',
      json({ kind: 'logo', contentType: 'image/png', size: 0 }, bearer(business)),
    );
    expect(res.status).toBe(400);
    for (const accentColor of ['red', '#12345', 'javascript:alert(1)', '#ggg']) {
      const bad = await patch(business, { accentColor });
      expect(bad.status, accentColor).toBe(400);
    }
  });
});

describe('recipient pages', () => {
  it("the download answer carries the sender's branding with a short-lived logo URL; a member's transfer shows the admin's", async () => {
    for (const sender of [business, member]) {
      const t = await sendFiles(app, sender, new Map([['notes.txt', Buffer.from('hello')]]));
      const res = await api(app, '/getDownload', json({ id: t.id }));
      expect(res.status, res.text).toBe(200);
      const view = res.json as DownloadView;
      expect(view.branding).toMatchObject({
        accentColor: '#ffcc00',
        accentTextColor: '#000000',
        backgroundColor: '#102030',
        showPoweredBy: true,
      });
      const url = new URL(view.branding!.logoUrl!);
      expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(600);
      const logo = await fetchBytes(url.toString());
      expect(logo.headers.get('content-type')).toBe('image/png');
      expect(logo.bytes.equals(PNG)).toBe(true);
    }
  });

  it("the request page carries the requester's branding", async () => {
    const created = await api(app, '/requests', json({ title: 'Send me the drafts' }, bearer(business)));
    expect(created.status, created.text).toBe(201);
    const page = await api(app, `/r/${created.json.id}`);
    const body = page.json as PublicRequestResponse;
    expect(body.branding.accentColor).toBe('#ffcc00');
    expect(body.logoUrl).toBe(body.branding.logoUrl);
  });
});

describe('powered by', () => {
  it("is removable on business, refused on pro, and the download answer follows the server's decision", async () => {
    const refused = await patch(pro, { showPoweredBy: false });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('plan_forbids_powered_by');
    const off = await patch(business, { showPoweredBy: false });
    expect(off.status, off.text).toBe(200);
    expect((off.json as OwnBranding).showPoweredBy).toBe(false);
    const t = await sendFiles(app, business, new Map([['a.txt', Buffer.from('a')]]));
    expect(((await api(app, '/getDownload', json({ id: t.id }))).json as DownloadView).branding?.showPoweredBy).toBe(
      false,
    );
    // A downgrade brings the line back without anyone touching the branding.
    await setProfile(business, { role: 'pro' });
    expect(((await api(app, '/getDownload', json({ id: t.id }))).json as DownloadView).branding?.showPoweredBy).toBe(
      true,
    );
    await setProfile(business, { role: 'business' });
  });
});

describe('team members', () => {
  it("see the admin's branding read-only and are refused every change", async () => {
    const own = (await api(app, '/branding/me', { headers: bearer(member) })).json as OwnBranding;
    expect(own).toMatchObject({ editable: false, accentColor: '#ffcc00' });
    for (const res of [
      await patch(member, { accentColor: '#000000' }),
      await api(app, '/branding/images', json({ kind: 'logo', contentType: 'image/png', size: 10 }, bearer(member))),
      await api(app, '/v1/updateProfile', json({ showLogoNav: false }, bearer(member))),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('team_member_forbidden');
    }
  });
});

describe('GET /branding?host=', () => {
  it("answers a verified domain's logo, colours and company name, and the same 404 for pending and unknown hosts", async () => {
    const claim = (host: string, status: string) =>
      dynamo().send(
        new PutCommand({
          TableName: app.stack.env.TABLE_NAME,
          Item: {
            ...keys.customDomain(host),
            entity: 'customDomain',
            userId: business.sub,
            status,
            createdAt: Date.now(),
          },
        }),
      );
    await claim('files.acme-studio.com', 'verified');
    await claim('pending.acme-studio.com', 'pending');
    const res = await api(app, '/branding?host=Files.Acme-Studio.com');
    expect(res.status, res.text).toBe(200);
    const body = res.json as HostBranding;
    expect(body).toMatchObject({ companyName: 'Acme Studio', accentColor: '#ffcc00' });
    expect(body.logoUrl).toContain('brand-logo-');
    expect(Object.keys(body).sort()).toEqual([
      'accentColor',
      'accentTextColor',
      'backgroundColor',
      'backgroundUrl',
      'companyName',
      'logoUrl',
      'showPoweredBy',
    ]);
    expect(JSON.stringify(body)).not.toContain(business.email);
    const pending = await api(app, '/branding?host=pending.acme-studio.com');
    const unknown = await api(app, '/branding?host=nobody.example.org');
    expect([pending.status, unknown.status]).toEqual([404, 404]);
    expect(pending.text).toBe(unknown.text);
    expect((await api(app, '/branding?host=%3Cscript%3E')).status).toBe(400);
  });
});
