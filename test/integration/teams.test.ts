/**
 * Teams and sharing against the local emulators: seats under concurrency, invite
 * links (single use, bound to the address, expiring), members refused the admin's routes and
 * billing, members' sends counted against the admin, sharing and the shared filter, read-only
 * shared transfers, and removal (transfers stay with the admin, the account is detached; what
 * was shared with the member, and the member's API keys, stop working at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import { ddb } from '../../functions/lib/clients/dynamodb';
import { config } from '../../functions/lib/env';
import { keys } from '../../functions/data/keys';
import { hashToken } from '../../functions/lib/secrets';
import { TEXTS } from '../../functions/domain/texts';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  createUser,
  fetchBytes,
  json,
  randomData,
  sendFiles,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let admin: TestUser;
let outsider: TestUser;
const ADMIN = 'team.admin@example.com';
const M1 = 'member.one@example.com';
const M2 = 'member.two@example.com';
const M3 = 'member.three@example.com';
const PASSWORD = 'Member-pass-123';
const tokens = new Map<string, string>();

/** The invite link's token from the newest invite mail to `email`. */
async function inviteToken(email: string): Promise<string> {
  const mail = await waitForMail(app, email, /\/invite\/[A-Za-z0-9_-]{43}/);
  return /\/invite\/([A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
}

async function accept(token: string, email: string, fullName = 'Member Person') {
  return api(app, '/v1/teams', json({ token, newMemberEmail: email, fullName, password: PASSWORD }, {}, 'PATCH'));
}

beforeAll(async () => {
  app = await startTestApp();
  [admin, outsider] = await Promise.all([
    createUser(app, ADMIN, 'business'),
    createUser(app, 'not.in.team@example.com', 'business'),
  ]);
});

afterAll(async () => {
  await app?.stop();
});

describe('teams', () => {
  let member1: TestUser;
  let member2: TestUser;

  it("20 parallel invites take exactly the plan's 5 seats; revoking frees seats", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(app, '/teams/invites', json({ email: `invitee${i}@example.com`, lang: 'en' }, bearer(admin))),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(
      refused.every((r) => r.status === 409 && r.json.error.code === 'team_full'),
      refused[0]?.text,
    ).toBe(true);
    const team = await api(app, '/teams', { headers: bearer(admin) });
    expect(team.json).toMatchObject({ role: 'admin', limit: 5, used: 5 });
    for (const inv of team.json.invites as { id: string }[]) {
      expect((await api(app, `/teams/invites/${inv.id}`, { method: 'DELETE', headers: bearer(admin) })).status).toBe(
        200,
      );
    }
    const after = await api(app, '/teams', { headers: bearer(admin) });
    expect(after.json).toMatchObject({ used: 0, invites: [] });
    // the revoked links are dead
    const dead = (await waitForMail(app, 'invitee', /\/invite\//)).body.text;
    const deadToken = /\/invite\/([A-Za-z0-9_-]{43})/.exec(dead)![1]!;
    expect((await api(app, `/invite/${deadToken}`)).status).toBe(404);
  });

  it('invites three; the page shows the address and the admin; an existing account and a pending invite get clear 409s', async () => {
    await api(app, '/v1/updateProfile', json({ fullName: 'Ada Admin', company: 'Admin Co' }, bearer(admin)));
    for (const email of [M1, M2, M3]) {
      const res = await api(app, '/teams/invites', json({ email }, bearer(admin)));
      expect(res.status, res.text).toBe(201);
      tokens.set(email, await inviteToken(email));
    }
    const info = await api(app, `/invite/${tokens.get(M1)}`);
    expect(info.status, info.text).toBe(200);
    expect(info.json).toMatchObject({ email: M1, adminName: 'Ada Admin', company: 'Admin Co', state: 'pending' });
    expect(Object.keys(info.json).sort()).toEqual(['adminName', 'company', 'email', 'expiresAt', 'state']);
    const taken = await api(app, '/teams/invites', json({ email: outsider.email }, bearer(admin)));
    expect([taken.status, taken.json.error.code, taken.json.error.message]).toEqual([
      409,
      'email_taken',
      TEXTS.emailTaken,
    ]);
    const again = await api(app, '/teams/invites', json({ email: M1 }, bearer(admin)));
    expect([again.status, again.json.error.code]).toEqual([409, 'email_invited']);
    const register = await api(app, '/newsignupverify', json({ email: M1 }));
    expect([register.status, register.json.error.code]).toEqual([409, 'email_invited']);
    expect(register.json.error.message).toContain(TEXTS.emailTaken);
  });

  it('an invite cannot be accepted for another address; an expired one is refused; a resend makes a new link', async () => {
    const wrong = await accept(tokens.get(M1)!, 'someone.else@example.com');
    expect([wrong.status, wrong.json.error.code]).toEqual([403, 'invite_wrong_address']);
    const other = await accept(tokens.get(M1)!, M2);
    expect(other.status).toBe(403);
    // M3's link ran out
    await ddb().update({
      TableName: config().tableName,
      Key: keys.inviteToken(hashToken(tokens.get(M3)!)),
      UpdateExpression: 'SET expiresAt = :x',
      ExpressionAttributeValues: { ':x': Date.now() - 1000 },
    });
    expect((await api(app, `/invite/${tokens.get(M3)}`)).json.state).toBe('expired');
    const late = await accept(tokens.get(M3)!, M3);
    expect([late.status, late.json.error.code]).toEqual([410, 'invite_expired']);
    const team = await api(app, '/teams', { headers: bearer(admin) });
    const m3 = (team.json.invites as { id: string; email: string }[]).find((i) => i.email === M3)!;
    // a resend right after the mail waits (no inbox flooding); a minute later it goes
    const early = await api(app, `/teams/invites/${m3.id}/resend`, json({}, bearer(admin)));
    expect([early.status, early.json.error.code]).toEqual([429, 'rate_limited']);
    await ddb().update({
      TableName: config().tableName,
      Key: keys.teamInvite(admin.sub, m3.id),
      UpdateExpression: 'SET sentAt = :s',
      ExpressionAttributeValues: { ':s': Date.now() - 61_000 },
    });
    const resent = await api(app, `/teams/invites/${m3.id}/resend`, json({}, bearer(admin)));
    expect([resent.status, resent.json.state]).toEqual([200, 'pending']);
    const fresh = await inviteToken(M3);
    expect(fresh).not.toBe(tokens.get(M3));
    expect((await api(app, `/invite/${tokens.get(M3)}`)).status).toBe(404);
    expect((await api(app, `/invite/${fresh}`)).json.state).toBe('pending');
  });

  it('accepting signs the member in under the admin; the link works once', async () => {
    const res = await accept(tokens.get(M1)!, M1, 'Mia Member');
    expect(res.status, res.text).toBe(201);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sb_refresh='))).toBe(true);
    expect(res.json.user).toMatchObject({
      email: M1,
      fullName: 'Mia Member',
      isTeamMember: true,
      role: 'business',
      company: 'Admin Co',
      parentAdmin: { parentAdminID: admin.sub, parentEmail: ADMIN, parentAdminFullName: 'Ada Admin' },
    });
    const twice = await accept(tokens.get(M1)!, M1);
    expect([404, 410]).toContain(twice.status);
    const login = await api(app, '/combinedAuth', json({ email: M1, password: PASSWORD }));
    expect(login.status, login.text).toBe(200);
    member1 = { email: M1, accessToken: login.json.accessToken as string, sub: login.json.user._id as string };
    const res2 = await accept(tokens.get(M2)!, M2, 'Max Member');
    expect(res2.status, res2.text).toBe(201);
    member2 = { email: M2, accessToken: res2.json.accessToken as string, sub: res2.json.user._id as string };
    const team = await api(app, '/teams', { headers: bearer(admin) });
    expect(team.json.used).toBe(3);
    expect((team.json.members as { shareWithEmail: string }[]).map((m) => m.shareWithEmail)).toEqual([ADMIN, M1, M2]);
  });

  it('members are refused the Teams and Billing routes and cannot invite', async () => {
    const invites = await api(app, '/teams/invites', json({ email: 'friend@example.com' }, bearer(member1)));
    expect([invites.status, invites.json.error.code]).toEqual([403, 'team_member_forbidden']);
    const team = await api(app, '/teams', { headers: bearer(admin) });
    const inviteId = (team.json.invites as { id: string }[])[0]!.id;
    const revoke = await api(app, `/teams/invites/${inviteId}`, { method: 'DELETE', headers: bearer(member1) });
    expect([revoke.status, revoke.json.error.code]).toEqual([403, 'team_member_forbidden']);
    const remove = await api(app, `/teams/members/${member2.sub}`, { method: 'DELETE', headers: bearer(member1) });
    expect([remove.status, remove.json.error.code]).toEqual([403, 'team_member_forbidden']);
    const billing = await api(app, '/getStripeData', { headers: bearer(member1) });
    expect([billing.status, billing.json.error.code]).toEqual([403, 'team_member_billing']);
    // the member sees the team's people for sharing, no invites
    const view = await api(app, '/teams', { headers: bearer(member1) });
    expect(view.json).toMatchObject({ role: 'member', invites: [] });
    // another admin cannot touch this team's member or invite
    expect(
      (await api(app, `/teams/members/${member2.sub}`, { method: 'DELETE', headers: bearer(outsider) })).status,
    ).toBe(404);
    expect((await api(app, `/teams/invites/${inviteId}`, { method: 'DELETE', headers: bearer(outsider) })).status).toBe(
      404,
    );
  });

  let shared: string;
  it("a member's send counts against the admin's storage and is shared with the chosen team mates only", async () => {
    const before = (await api(app, '/folderSize', json({}, bearer(admin)))).json;
    const data = randomData(4096);
    const t = await sendFiles(app, member1, new Map([['team-plan.txt', data]]), { shareWith: [member2.sub] });
    shared = t.id;
    const after = (await api(app, '/folderSize', json({}, bearer(admin)))).json;
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
    const adminMe = (await api(app, '/me', { headers: bearer(admin) })).json;
    const memberMe = (await api(app, '/me', { headers: bearer(member1) })).json;
    expect(adminMe.storageUsed).toBe(4096);
    expect(memberMe.storageUsed).toBe(4096);
    const stranger = await api(
      app,
      '/me/transfers',
      json(
        { sendAs: 'link', fileObjects: [{ fileName: 'x.txt', size: 3 }], shareWith: [outsider.sub] },
        bearer(member1),
      ),
    );
    expect([stranger.status, stranger.json.error.code]).toEqual([400, 'share_not_team']);
    const list = await api(app, '/getQs?filter=shared', { headers: bearer(member2) });
    expect(list.json.sharedCount).toBe(1);
    expect(list.json.allDocs).toEqual([
      expect.objectContaining({ slug: shared, fileName: 'team-plan.txt', sharedBy: M1 }),
    ]);
    // the admin sees a member's send too; the outsider nothing
    expect((await api(app, '/getQs?filter=shared', { headers: bearer(admin) })).json.sharedCount).toBe(1);
    expect((await api(app, '/getQs?filter=shared', { headers: bearer(outsider) })).json).toMatchObject({
      sharedCount: 0,
      allDocs: [],
    });
  });

  it('a shared transfer is read only for the team mate; the sender and the admin manage it', async () => {
    const detail = await api(app, `/getQs?slug=${shared}`, { headers: bearer(member2) });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.json).toMatchObject({ slug: shared, readOnly: true });
    for (const [path, body] of [
      ['/deleteTransfer', { slug: shared }],
      ['/transfers/expiry', { slug: shared, expirySeconds: 604_800 }],
      ['/transfers/password', { slug: shared, password: 'mine-now' }],
      ['/transfers/emailSend', { slug: shared, emails: ['x@example.com'] }],
    ] as const) {
      const res = await api(app, path, json(body, bearer(member2)));
      expect(res.status, `${path} ${res.text}`).toBe(403);
    }
    expect((await api(app, `/getQs?slug=${shared}`, { headers: bearer(outsider) })).status).toBe(403);
    const adminView = await api(app, `/getQs?slug=${shared}`, { headers: bearer(admin) });
    expect(adminView.json.readOnly).toBeUndefined();
    expect(
      (await api(app, '/transfers/expiry', json({ slug: shared, expirySeconds: 604_800 }, bearer(admin)))).status,
    ).toBe(200);
  });

  it('removing a member keeps the transfers with the admin and detaches the account', async () => {
    const res = await api(app, `/teams/members/${member1.sub}`, { method: 'DELETE', headers: bearer(admin) });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ removed: true, transfersMoved: 1 });
    const adminList = await api(app, '/getQs', { headers: bearer(admin) });
    expect(adminList.json.allDocs).toEqual([expect.objectContaining({ slug: shared })]);
    expect(adminList.json.allCount).toBe(1);
    // the removed member's token now acts as a free account of its own, with no transfers
    const me = (await api(app, '/me', { headers: bearer(member1) })).json;
    expect(me).toMatchObject({ isTeamMember: false, role: 'free', storageUsed: 0 });
    expect(me.parentAdmin).toBeUndefined();
    expect((await api(app, '/getQs', { headers: bearer(member1) })).json.allCount).toBe(0);
    expect((await api(app, `/getQs?slug=${shared}`, { headers: bearer(member1) })).status).toBe(403);
    expect((await api(app, '/deleteTransfer', json({ slug: shared }, bearer(member1)))).status).toBe(403);
    const invite = await api(app, '/teams/invites', json({ email: 'friend@example.com' }, bearer(member1)));
    expect([invite.status, invite.json.error.code]).toEqual([403, 'team_plan_required']);
    // the team mate still sees it shared; the seat came back
    expect((await api(app, '/getQs?filter=shared', { headers: bearer(member2) })).json.sharedCount).toBe(1);
    expect((await api(app, '/teams', { headers: bearer(admin) })).json.used).toBe(2);
    // the admin deletes it: it leaves the shared lists
    expect((await api(app, '/deleteTransfer', json({ slug: shared }, bearer(admin)))).status).toBe(200);
    expect((await api(app, '/getQs?filter=shared', { headers: bearer(member2) })).json.sharedCount).toBe(0);
  });

  it('a removed member reads nothing that was shared with them, even after signing in again (the probe)', async () => {
    const keyAuth = (key: string) => ({ authorization: `Bearer ${key}` });
    // The admin lets members use API keys; member2 makes one while in the team.
    expect((await api(app, '/teams/api-keys', json({ membersAllowed: true }, bearer(admin), 'PUT'))).status).toBe(200);
    const minted = await api(
      app,
      '/me/api-keys',
      json({ name: 'member2', scopes: ['transfers:read', 'send'] }, bearer(member2)),
    );
    expect(minted.status, minted.text).toBe(201);
    const memberKey = minted.json.key as string;
    // Two transfers of the admin shared with member2: an open one and a password-protected one.
    const notes = randomData(2048);
    const open = await sendFiles(app, admin, new Map([['board-notes.txt', notes]]), { shareWith: [member2.sub] });
    const locked = await sendFiles(app, admin, new Map([['salaries.txt', randomData(1024)]]), {
      shareWith: [member2.sub],
      password: 'Locked-pass-42',
    });
    // While in the team: previews with URLs to the bytes (the locked one too, without its password), the shared list, the detail, the key.
    const before = await api(app, `/transfers/${open.id}/previews`, { headers: bearer(member2) });
    expect(before.status, before.text).toBe(200);
    const url = (before.json.files as { url?: string }[])[0]!.url!;
    expect((await fetchBytes(url)).bytes.equals(notes)).toBe(true);
    expect(
      (await api(app, `/transfers/${locked.id}/previews`, { headers: bearer(member2) })).json.files[0].url,
    ).toEqual(expect.any(String));
    const listed = await api(app, '/getQs?filter=shared', { headers: bearer(member2) });
    expect(listed.json.sharedCount).toBe(2);
    expect((listed.json.allDocs as { slug: string }[]).map((d) => d.slug).sort()).toEqual([open.id, locked.id].sort());
    expect((await api(app, `/getQs?slug=${open.id}`, { headers: bearer(member2) })).status).toBe(200);
    expect((await api(app, `/v1/transfers/${open.id}`, { headers: keyAuth(memberKey) })).status).toBe(200);

    const removed = await api(app, `/teams/members/${member2.sub}`, { method: 'DELETE', headers: bearer(admin) });
    expect(removed.status, removed.text).toBe(200);
    const login = await api(app, '/combinedAuth', json({ email: M2, password: PASSWORD }));
    expect(login.status, login.text).toBe(200);
    expect(login.json.user).toMatchObject({ isTeamMember: false, role: 'free' });
    const fresh: TestUser = { email: M2, accessToken: login.json.accessToken as string, sub: member2.sub };

    const refusedAll = async (who: TestUser, why: string) => {
      for (const t of [open, locked]) {
        for (const path of [`/transfers/${t.id}/previews`, `/getQs?slug=${t.id}`]) {
          const res = await api(app, path, { headers: bearer(who) });
          expect([res.status, res.json.error?.code], `${why}: ${path} ${res.text}`).toEqual([403, 'not_owner']);
          expect(res.text).not.toContain('board-notes.txt');
          expect(res.text).not.toContain('salaries.txt');
        }
        // The download routes take the link's password, never a session: the JWT opens nothing.
        for (const [path, body] of [
          ['/getDownload/file', { id: t.id, fileId: t.files[0]!.fileId }],
          ['/zip', { id: t.id }],
        ] as const) {
          if (t === open) continue;
          const res = await api(app, path, json(body, bearer(who)));
          expect([res.status, res.json.error?.code], `${why}: ${path} ${res.text}`).toEqual([401, 'password_required']);
        }
      }
      const list = await api(app, '/getQs?filter=shared', { headers: bearer(who) });
      expect(list.status, list.text).toBe(200);
      expect(list.json, why).toMatchObject({ sharedCount: 0, allDocs: [] });
      const all = await api(app, '/getQs', { headers: bearer(who) });
      expect(all.json.allDocs, why).toEqual([]);
    };
    await refusedAll(fresh, 'after a fresh sign-in');
    await refusedAll(member2, 'with the token from before the removal');
    // The key made in the team is revoked with the membership: it acts for no one.
    for (const path of [`/v1/transfers/${open.id}`, '/v1/transfers?filter=shared', '/v1/transfers']) {
      const res = await api(app, path, { headers: keyAuth(memberKey) });
      expect([res.status, res.json.error?.code], `${path} ${res.text}`).toEqual([401, 'invalid_api_key']);
    }
    expect((await api(app, '/me/api-keys', { headers: bearer(fresh) })).json.keys).toEqual([]);

    // A share item that outlived the membership (written by a send racing the removal, or an
    // old one) opens nothing: reads check the membership itself, not the item.
    await ddb().put({
      TableName: config().tableName,
      Item: {
        ...keys.transferShare(open.id, member2.sub),
        ...keys.sharedWith(member2.sub, Date.now(), open.id),
        entity: 'TransferShare',
        slug: open.id,
        userId: member2.sub,
        senderId: admin.sub,
        teamId: admin.sub,
        sharedAt: Date.now(),
      },
    });
    await refusedAll(fresh, 'with a leftover share item');
    // The admin still has everything.
    expect((await api(app, `/transfers/${open.id}/previews`, { headers: bearer(admin) })).status).toBe(200);
  });

  it('a membership that ends without the removal route (a team deleted, a member gone) ends what was shared and the keys too', async () => {
    const M4 = 'member.four@example.com';
    expect((await api(app, '/teams/invites', json({ email: M4 }, bearer(admin)))).status).toBe(201);
    const joined = await accept(await inviteToken(M4), M4, 'Fay Four');
    expect(joined.status, joined.text).toBe(201);
    const member4: TestUser = {
      email: M4,
      accessToken: joined.json.accessToken as string,
      sub: joined.json.user._id as string,
    };
    const minted = await api(
      app,
      '/me/api-keys',
      json({ name: 'member4', scopes: ['transfers:read'] }, bearer(member4)),
    );
    expect(minted.status, minted.text).toBe(201);
    const t = await sendFiles(app, admin, new Map([['plan-b.txt', randomData(512)]]), { shareWith: [member4.sub] });
    expect((await api(app, `/transfers/${t.id}/previews`, { headers: bearer(member4) })).status).toBe(200);
    expect(
      (await api(app, `/v1/transfers/${t.id}`, { headers: { authorization: `Bearer ${minted.json.key}` } })).status,
    ).toBe(200);
    // Only the member item goes: the profile still says member, the share item and the key are still there.
    await ddb().delete({ TableName: config().tableName, Key: keys.teamMember(admin.sub, member4.sub) });
    const previews = await api(app, `/transfers/${t.id}/previews`, { headers: bearer(member4) });
    expect([previews.status, previews.json.error?.code]).toEqual([403, 'not_owner']);
    expect((await api(app, '/getQs?filter=shared', { headers: bearer(member4) })).json).toMatchObject({
      sharedCount: 0,
      allDocs: [],
    });
    const key = await api(app, `/v1/transfers/${t.id}`, { headers: { authorization: `Bearer ${minted.json.key}` } });
    expect([key.status, key.json.error?.code]).toEqual([401, 'invalid_api_key']);
  });

  it('free accounts have no seats: the invite is refused', async () => {
    const free = await createUser(app, 'free.admin@example.com', 'free');
    const res = await api(app, '/teams/invites', json({ email: 'x.friend@example.com' }, bearer(free)));
    expect([res.status, res.json.error.code]).toEqual([403, 'team_plan_required']);
    expect((await api(app, '/teams', { headers: bearer(free) })).json).toMatchObject({ role: 'none', limit: 0 });
  });
});
