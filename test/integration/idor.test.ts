/**
 * The IDOR matrix: every route of functions/routes.ts, by what it declares it
 * touches (`owns`). For each route that touches a record, user A's real record is built
 * (transfers created and uploaded, a password-protected one for the link routes, mailed codes
 * and links read from the inbox), then someone else tries: user B's token, a guest, a forged
 * id or secret, no credentials, and for upload-token routes another transfer's token. Each
 * try must be refused with the kind's status and no answer may carry A's data or a credential.
 * A route whose `owns` kind this file does not know fails, so a new kind gets its cells here.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { API_PREFIX, ownsKindOf, routes, type ApiRoute } from '../../functions/routes';
import { api, startTestApp } from '../helpers/local-app';
import { ddb } from '../../functions/lib/clients/dynamodb';
import { config } from '../../functions/lib/env';
import { keys } from '../../functions/data/keys';
import { putDelivery } from '../../functions/data/deliveries';
import { fileKeyStore } from '../../functions/adapters/receipt-keys';
import { ensureKeySet, signReceipt } from '../../functions/services/receipts';
import { clearClientFailures } from '../../functions/data/verification';
import { UNLOCK_FAILURES } from '../../functions/services/downloads';
import {
  bearer,
  completeTransfer,
  createUser,
  guestToken,
  json,
  randomData,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';
import { loadRouteSchemas, routeSchemas } from '../helpers/route-schemas';
import type { RequestSummary } from '../../functions/domain/requests-api';
import { simulator } from '../../functions/adapters/payments/simulated';
import { priceView, simPrice } from '../../functions/adapters/payments/simulated/prices';
import { getObject } from '../../functions/adapters/payments/simulated/store';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
let guest: string;
/** A's sent transfer (owner routes), A's password-protected one (link routes), A's unfinished upload, B's unfinished upload. */
let sent: CreateTransferResponse;
const SENT_DELIVERY = '0193a1b2-c3d4-7e5f-8a9b-00000000a11c';
let locked: CreateTransferResponse;
let uploading: CreateTransferResponse;
let bobs: CreateTransferResponse;
let aliceCookie: string;
let lockedExpiry: number;
/** A's notification of a download of `sent` (the self routes of notifications aim at it). */
let aliceNotifyId: string;
const TODAY = new Date().toISOString().slice(0, 10);
/** A's contact: the contacts routes are 'self', found by the JWT's sub and an address. */
const ALICE_CONTACT = {
  email: 'alice.client@example.com',
  name: 'Alice Private Client',
  company: 'Alice Secret Holdings',
};

const PASSWORD = 'Blue-Lagoon-93';
const FILE_SENT = 'alice-board-minutes.txt';
const FILE_LOCKED = 'alice-salary-review.txt';
const FILE_UPLOADING = 'alice-unreleased-draft.txt';
const GUEST = 'guest.sender@example.com';
const VICTIM_GUEST = 'victim.guest@example.com';
const UNKNOWN_ID = 'Zq9Xw2K';
/** A's file request with a visitor's finished upload, A's closed one, B's own, and an unknown request id */
let aliceRequest: RequestSummary;
let closedRequest: RequestSummary;
let bobRequest: RequestSummary;
let requestUpload: CreateTransferResponse;
let visitor: string;
const VISITOR = 'request.visitor@example.com';
const FILE_REQUESTED = 'alice-requested-passport-scan.pdf';
const UNKNOWN_REQUEST = 'Zq9Xw2Kp';
const forgedToken = () => `${'f'.repeat(42)}Q`;
/** a link visitor's identity on the review routes (anyone may type a name) */
const BOB_VISITOR = { visitorId: 'BobVisitor0000000000Zz', name: 'Bob the visitor' };
/** a thread id on the sender's review routes (A's review has none: every try is refused before it is read) */
const SOME_THREAD = '0193a1b2-c3d4-7e5f-8a9b-00000000c0de';
/** A's open checkout session and A's unused SetupIntent in the payments simulator (their client secrets) */
let aliceCheckout: { id: string; secret: string } | undefined;
let aliceSetup: { id: string; secret: string } | undefined;
/** A's pending team invite (its admin handle and mailed token) and A's team member */
const ALICE_INVITEE = 'alice.invitee@example.com';
const ALICE_MEMBER = 'alice.member@example.com';
let aliceInvite: { id: string; token: string };
/** A's webhook endpoint and one delivery of it ('self' routes whose path names them) */
let aliceWebhook: Promise<{ id: string; deliveryId: string }> | undefined;
function aliceWebhookOnce(): Promise<{ id: string; deliveryId: string }> {
  aliceWebhook ??= (async () => {
    const created = await api(
      app,
      '/webhooks',
      json(
        { url: 'http://127.0.0.1:9/hook', events: ['transfer.expired'], description: 'alice-webhook' },
        bearer(alice),
      ),
    );
    expect(created.status, created.text).toBe(201);
    const id = created.json.endpoint.id as string;
    const ping = await api(app, `/webhooks/${id}/test`, { method: 'POST', headers: bearer(alice) });
    expect(ping.status, ping.text).toBe(202);
    return { id, deliveryId: ping.json.delivery.id as string };
  })();
  return aliceWebhook;
}
let aliceMember: TestUser;
/**
 * A's former team member: while in A's team, A shared `sharedToRemoved` with them, they sent
 * `sentByRemoved` into A's storage and made `removedKey` (every scope); then A removed them and
 * they signed in again (`removed` holds that fresh session). Every route is tried by them too.
 */
const REMOVED = 'alice.former.member@example.com';
const FILE_SHARED_TO_REMOVED = 'alice-shared-with-team.txt';
const FILE_SENT_BY_REMOVED = 'sent-while-in-alices-team.txt';
let removed: TestUser;
let removedKey: string;
let sharedToRemoved: CreateTransferResponse;
let sentByRemoved: CreateTransferResponse;
const UNKNOWN_MEMBER = '00000000-0000-4000-8000-000000000000';
/** API keys: A's and B's with every scope, A's with one other scope only, A's revoked one, and B's key id */
const ALL_SCOPES = ['send', 'transfers:read', 'requests', 'webhooks'];
let aliceKey: { id: string; key: string };
let bobKey: { id: string; key: string };
let aliceSendOnly: string;
let aliceWebhooksOnly: string;
let aliceRevokedKey: string;
const keyAuth = (key: string) => ({ authorization: `Bearer ${key}` });
/** A's key with a changed secret (its id is real). */
const forgedKey = () => `${aliceKey.key.slice(0, -6)}${aliceKey.key.endsWith('ZZZZZZ') ? 'YYYYYY' : 'ZZZZZZ'}`;
/** A key of A's that lacks the route's scope. */
const keyWithout = (route: ApiRoute) => (route.scope === 'webhooks' ? aliceSendOnly : aliceWebhooksOnly);

/**
 * the public API v1 routes (`auth: 'key'`): the same records and owners as the app's
 * routes, attacked with keys instead of JWTs.
 */
function keyAttempts(route: ApiRoute): Attempt[] {
  return [
    { label: 'no credentials', expect: [401] },
    { label: "A's JWT instead of a key", headers: bearer(alice), expect: [401] },
    { label: "A's key with a forged secret", headers: keyAuth(forgedKey()), expect: [401] },
    { label: "A's revoked key", headers: keyAuth(aliceRevokedKey), expect: [401] },
    { label: "A's key without the route's scope", headers: keyAuth(keyWithout(route)), expect: [403] },
    { label: "A's key in the query string", query: `?api_key=${aliceKey.key}`, expect: [401] },
  ];
}

const TEST_CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 5, cvc: '123' };

/** Everything of A's that no refused answer may contain. */
function aliceSecrets(): string[] {
  return [
    ...(aliceKey ? [aliceKey.key, aliceSendOnly, aliceWebhooksOnly] : []),
    ...(aliceCheckout ? [aliceCheckout.secret, aliceCheckout.id] : []),
    ...(aliceSetup ? [aliceSetup.secret] : []),
    alice.email,
    alice.sub,
    ...(aliceInvite ? [aliceInvite.token, aliceInvite.id, ALICE_INVITEE] : []),
    FILE_SENT,
    FILE_LOCKED,
    FILE_UPLOADING,
    FILE_SHARED_TO_REMOVED,
    FILE_SENT_BY_REMOVED,
    sent.uploadToken,
    locked.uploadToken,
    uploading.uploadToken,
    aliceCookie,
    ALICE_CONTACT.name,
    ALICE_CONTACT.company,
    VISITOR,
    FILE_REQUESTED,
    requestUpload.id,
    requestUpload.uploadToken,
  ];
}
/** Keys that would hand out a credential or a storage URL. */
const CREDENTIAL_KEYS =
  /"(accessToken|refreshToken|senderToken|registrationToken|uploadToken|url|parts|files|user)"\s*:/;

async function createAndUpload(
  user: TestUser,
  fileName: string,
  extra: Record<string, unknown> = {},
  finish = true,
): Promise<CreateTransferResponse> {
  const data = randomData(64);
  const res = await api(
    app,
    '/me/transfers',
    json({ sendAs: 'link', fileObjects: [{ fileName, size: data.length }], ...extra }, bearer(user)),
  );
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  const t = res.json as CreateTransferResponse;
  if (finish) {
    await uploadAll(app, t, new Map([[fileName, data]]));
    const done = await completeTransfer(app, t);
    if (done.status !== 200) throw new Error(`complete ${done.status} ${done.text}`);
  }
  return t;
}

/** The 5-digit code mailed to `email` (asked for once per address in this file) after `startPath`. */
async function mailedCode(startPath: string, email: string): Promise<string> {
  const res = await api(app, startPath, json({ email, lang: 'en' }));
  if (res.status !== 202) throw new Error(`${startPath} ${res.status} ${res.text}`);
  const mail = await waitForMail(app, email, /\b\d{5}\b/);
  return /\b(\d{5})\b/.exec(mail.body.text)![1]!;
}

/** A JWT whose signature no longer matches. */
function tampered(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

interface Attempt {
  readonly label: string;
  readonly path?: { id?: string; fileId?: string; slug?: string; deliveryId?: string };
  /** a query string instead of the route's usual one (queryFor) */
  readonly query?: string;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body?: Record<string, unknown>;
  /** body fields left out (the secret a 'no code / no token' try does not send) */
  readonly omit?: readonly string[];
  /** statuses that mean "refused" for this try */
  readonly expect: readonly number[];
}

interface Cell {
  /** the record A owns that the attempts aim at, and the valid request fields for it */
  setup(route: ApiRoute): Promise<{
    path: { id?: string; fileId?: string; slug?: string; deliveryId?: string };
    body: Record<string, unknown>;
    attempts: Attempt[];
  }>;
  /** optional: after the attempts, A's record is still A's and intact */
  after?(route: ApiRoute): Promise<void>;
}

/** The valid body of a route aimed at a record, from the record's ids; undefined when the route reads no body. */
function bodyFor(route: ApiRoute, ids: { id: string; fileId: string }): Record<string, unknown> | undefined {
  const key = `${route.method} ${route.path}`;
  switch (key) {
    case 'POST /transfers/{id}/sign':
    case 'POST /v1/transfers/{id}/sign':
      return { fileId: ids.fileId };
    case 'POST /v1/transfers/{id}/parts':
    case 'POST /transfers/{id}/parts':
      return { fileId: ids.fileId, partNumber: 1, etag: '"0123456789abcdef"', size: 64 };
    case 'POST /transfers/{id}/files/{fileId}/complete':
    case 'POST /v1/transfers/{id}/files/{fileId}/complete':
      // a single PUT's CRC-32 (the body is optional)
      return { crc32: 0 };
    case 'PATCH /transfers/addFiles':
      return { slug: ids.id, fileObjects: [{ fileName: 'slipped-in-by-bob.txt', size: 5 }] };
    case 'POST /deleteTransfer':
    case 'POST /transfers/remind':
      return { slug: ids.id };
    case 'POST /transfers/forward':
      return { slug: ids.id, emailTo: [{ email: 'bob.other@example.com' }], message: 'forwarded by bob' };
    case 'POST /transfers/emailSend':
      return { slug: ids.id, emails: ['bob.other@example.com'] };
    case 'POST /transfers/expiry':
      return { slug: ids.id, expirySeconds: 604_800 };
    case 'POST /transfers/password':
      return { slug: ids.id, password: 'bobs-password' };
    case 'PATCH /transfers/{id}/download-limit':
      return { limit: 1 };
    case 'POST /getDownload':
    case 'POST /getDownload/previews':
    case 'POST /getDownload/manifest':
    case 'POST /zip':
      return { id: ids.id };
    case 'POST /getDownload/file':
      return { id: ids.id, fileId: ids.fileId };
    case 'POST /extension/request':
    case 'POST /getDownload/notify':
      return { id: ids.id, email: 'bob.other@example.com', lang: 'en' };
    case 'POST /getDownload/report':
      return { id: ids.id, reason: 'spam' };
    case 'POST /getDownload/access/code':
      return { id: ids.id, email: 'bob.other@example.com', lang: 'en' };
    case 'POST /getDownload/access/verify':
      return { id: ids.id, email: 'bob.other@example.com', code: '12345' };
    case 'POST /getDownload/review':
      return { id: ids.id, visitorId: BOB_VISITOR.visitorId };
    case 'POST /getDownload/review/code':
      return { id: ids.id, email: 'bob.other@example.com', lang: 'en' };
    case 'POST /getDownload/review/verify':
      return { id: ids.id, email: 'bob.other@example.com', code: '12345' };
    case 'POST /getDownload/review/comment':
      return { id: ids.id, visitor: BOB_VISITOR, fileId: ids.fileId, body: 'bob was here' };
    case 'POST /getDownload/review/favourite':
      return { id: ids.id, visitor: BOB_VISITOR, fileId: ids.fileId, favourite: true };
    case 'POST /getDownload/review/decision':
      return { id: ids.id, visitor: BOB_VISITOR, subject: ids.fileId, decision: 'approved' };
    case 'PATCH /transfers/{id}/review':
      return { closed: true };
    case 'POST /transfers/{id}/review/comments':
      return { fileId: ids.fileId, body: 'bob answers as the sender' };
    case 'POST /transfers/{id}/review/threads/{commentId}':
      return { resolved: true };
    case 'POST /transfers/access':
      return { slug: ids.id };
    case 'POST /transfers/access/settings':
      return { slug: ids.id, enabled: true, domain: 'bob.example' };
    case 'POST /transfers/access/add':
      return { slug: ids.id, emails: ['bob.other@example.com'] };
    case 'POST /transfers/access/recipient':
      return { slug: ids.id, email: 'bob.other@example.com', action: 'remove' };
    default:
      return undefined;
  }
}

/**
 * The removed member, on every route: each try a cell makes with B's JWT or B's key is made
 * again by A's former team member, who is an outsider now. Their fresh JWT gets B's refusal
 * (on transfer routes aimed at what A's team shared with them and at what they sent while in
 * it); their key, made in the team, is revoked with the membership: 401 wherever it is shown.
 * A cell without a try by B gets its first try again with the removed member's JWT.
 */
function removedMemberAttempts(route: ApiRoute, attempts: readonly Attempt[]): Attempt[] {
  const bobJwt = bearer(bob).authorization;
  const bobKeyAuth = keyAuth(bobKey.key).authorization;
  const onTransfers = ownsKindOf(route.owns) === 'transfer:owner';
  const aims = (t: CreateTransferResponse) => ({ id: t.id, fileId: t.files[0]!.fileId });
  const out: Attempt[] = [];
  for (const a of attempts) {
    // tries aimed at B's own records (a path of their own) stay B's
    if (a.path) continue;
    const auth = a.headers?.authorization;
    if (auth === bobKeyAuth) {
      const tries = onTransfers
        ? [
            { what: 'the transfer shared with them', path: aims(sharedToRemoved) },
            { what: 'the transfer they sent', path: aims(sentByRemoved) },
          ]
        : [{ what: '', path: undefined }];
      for (const { what, path } of tries)
        out.push({
          ...a,
          label: `the removed member's key from the team${what ? ` on ${what}` : ''}`,
          headers: { ...a.headers, ...keyAuth(removedKey) },
          ...(path ? { path } : {}),
          expect: [401],
        });
    } else if (auth === bobJwt) {
      const label = a.label.replace("B's JWT", "the removed member's fresh JWT");
      const headers = { ...a.headers, ...bearer(removed) };
      // the same client a third time on one transfer: past the report limit, as the guest's try is
      const expect = route.path === '/getDownload/report' ? [429] : a.expect;
      if (onTransfers) {
        out.push({
          ...a,
          label: `${label} on the transfer shared with them`,
          headers,
          path: aims(sharedToRemoved),
          expect,
        });
        out.push({
          ...a,
          label: `${label} on the transfer they sent while in the team`,
          headers,
          path: aims(sentByRemoved),
          expect,
        });
      } else {
        out.push({ ...a, label, headers, expect });
      }
    }
  }
  if (out.length === 0 && attempts[0])
    out.push({
      ...attempts[0],
      label: `${attempts[0].label}, with the removed member's fresh JWT`,
      headers: { ...attempts[0].headers, ...bearer(removed) },
    });
  return out;
}

const CELLS: Record<string, Cell> = {
  'transfer:upload-token': {
    async setup() {
      const path = { id: uploading.id, fileId: uploading.files[0]!.fileId };
      const tok = (t: string) => ({ 'x-upload-token': t });
      return {
        path,
        body: {},
        attempts: [
          { label: "B's JWT, no upload token", headers: bearer(bob), expect: [403] },
          { label: 'a guest (sender token), no upload token', headers: { 'x-sender-token': guest }, expect: [403] },
          { label: 'no credentials', expect: [403] },
          { label: "another transfer's upload token (B's)", headers: tok(bobs.uploadToken), expect: [403] },
          { label: "A's own other transfer's upload token", headers: tok(sent.uploadToken), expect: [403] },
          { label: 'a forged upload token', headers: tok(forgedToken()), expect: [403] },
          { label: "A's JWT (the owner) without the upload token", headers: bearer(alice), expect: [403] },
          {
            label: 'a forged transfer id with a real upload token',
            path: { id: UNKNOWN_ID },
            headers: tok(uploading.uploadToken),
            expect: [404],
          },
          {
            label: "this upload token on B's transfer",
            path: { id: bobs.id, fileId: bobs.files[0]!.fileId },
            headers: tok(uploading.uploadToken),
            expect: [403],
          },
        ],
      };
    },
    async after() {
      const state = await api(app, `/transfers/${uploading.id}/upload-state`, {
        headers: { 'x-upload-token': uploading.uploadToken },
      });
      expect(state.status, state.text).toBe(200);
      expect(state.json).toMatchObject({
        status: 'uploading',
        files: [{ fileName: FILE_UPLOADING, uploaded: false, partsDone: [] }],
      });
    },
  },

  'transfer:owner': {
    async setup(route) {
      if (route.auth === 'key') {
        return {
          path: { id: sent.id, fileId: sent.files[0]!.fileId },
          body: {},
          attempts: [
            ...keyAttempts(route),
            { label: "B's key (every scope)", headers: keyAuth(bobKey.key), expect: [403, 404] },
            ...(/\{fileId\}|\/sign$|\/parts$/u.test(route.path)
              ? [
                  {
                    label: "B's key on B's own transfer id with A's file id",
                    path: { id: bobs.id },
                    headers: keyAuth(bobKey.key),
                    expect: [400, 404, 409],
                  },
                ]
              : []),
            {
              label: "the transfer's own upload token instead of a key",
              headers: { 'x-upload-token': sent.uploadToken },
              expect: [401],
            },
            {
              label: "a forged transfer id with A's key",
              path: { id: UNKNOWN_ID },
              headers: keyAuth(aliceKey.key),
              expect: [404],
            },
          ],
        };
      }
      return {
        // the receipt routes name A's real delivery of it
        path: { id: sent.id, deliveryId: SENT_DELIVERY },
        body: {},
        attempts: [
          { label: "B's JWT", headers: bearer(bob), expect: [403, 404] },
          { label: 'a guest (sender token, no JWT)', headers: { 'x-sender-token': guest }, expect: [401] },
          { label: 'no credentials', expect: [401] },
          {
            label: "the transfer's own upload token instead of the owner's JWT",
            headers: { 'x-upload-token': sent.uploadToken },
            expect: [401],
          },
          {
            label: "a forged JWT (A's with a broken signature)",
            headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
            expect: [401],
          },
          {
            label: "a forged transfer id with A's JWT",
            path: { id: UNKNOWN_ID },
            headers: bearer(alice),
            expect: [404],
          },
        ],
      };
    },
    async after() {
      const view = await api(app, '/getDownload', json({ id: sent.id }));
      expect(view.status, view.text).toBe(200);
      expect(view.json.files).toEqual([expect.objectContaining({ fileName: FILE_SENT })]);
      // what A's team shared with the removed member, and what they sent into it, are A's and intact
      for (const [t, fileName] of [
        [sharedToRemoved, FILE_SHARED_TO_REMOVED],
        [sentByRemoved, FILE_SENT_BY_REMOVED],
      ] as const) {
        const mine = await api(app, `/getQs?slug=${t.id}`, { headers: bearer(alice) });
        expect(mine.status, mine.text).toBe(200);
        expect(mine.json).toMatchObject({ files: [expect.objectContaining({ fileName })] });
        expect(mine.json.readOnly).toBeUndefined();
      }
    },
  },

  'transfer:link-password': {
    async setup(route) {
      // each route is attacked from a clean client: the wrong passwords of the routes before
      // would otherwise pass the free ten and make this one's answers 429 instead of 401
      await clearClientFailures(UNLOCK_FAILURES.scope, locked.id, '127.0.0.1');
      const path = { id: locked.id, fileId: locked.files[0]!.fileId };
      const takesFileId = 'fileId' in (routeSchemas(route).bodyShape ?? {});
      return {
        path,
        body: {},
        attempts: [
          { label: 'no password (no credentials)', expect: [401] },
          { label: "B's JWT, no password", headers: bearer(bob), expect: [401] },
          { label: "the owner's JWT is not the password", headers: bearer(alice), expect: [401] },
          { label: 'a guest, no password', headers: { 'x-sender-token': guest }, expect: [401] },
          { label: 'a wrong password', body: { password: 'not-the-password' }, expect: [401] },
          { label: 'the upload token as password', body: { password: locked.uploadToken }, expect: [401] },
          {
            label: 'a forged link id with the right password',
            body: { id: UNKNOWN_ID, password: PASSWORD },
            expect: [404],
          },
          ...(takesFileId
            ? [
                {
                  label: "the right password with another transfer's file id",
                  body: { password: PASSWORD, fileId: sent.files[0]!.fileId },
                  expect: [404],
                },
              ]
            : []),
        ],
      };
    },
    async after() {
      const view = await api(app, '/getDownload', json({ id: locked.id, password: PASSWORD }));
      expect(view.status, view.text).toBe(200);
      expect(view.json).toMatchObject({ senderEmail: alice.email, files: [{ fileName: FILE_LOCKED }] });
    },
  },

  'transfer:link': {
    async setup(route) {
      // anyone holding the link may report it (202; the same client a third time 429); the answer names nothing of the transfer
      if (route.path === '/getDownload/report') {
        return {
          path: { id: locked.id },
          body: {},
          attempts: [
            { label: 'no credentials', expect: [202] },
            { label: "B's JWT", headers: bearer(bob), expect: [202] },
            { label: 'a guest, past the per-transfer limit', headers: { 'x-sender-token': guest }, expect: [429] },
            { label: 'a forged link id', body: { id: UNKNOWN_ID }, expect: [404] },
          ],
        };
      }
      return {
        path: { id: locked.id },
        body: {},
        attempts: [
          // The transfer is live: the only answer is that it has not expired, whoever asks.
          { label: 'no credentials', expect: [409] },
          { label: "B's JWT", headers: bearer(bob), expect: [409] },
          { label: 'a guest', headers: { 'x-sender-token': guest }, expect: [409] },
          { label: 'a forged link id', body: { id: UNKNOWN_ID }, expect: [404] },
        ],
      };
    },
  },

  'guest-sender:sender-token': {
    async setup() {
      const base = {
        sendAs: 'email',
        senderEmail: GUEST,
        emailTo: [{ email: 'someone@example.com' }],
        fileObjects: [{ fileName: 'g.txt', size: 3 }],
      };
      return {
        path: {},
        body: base,
        attempts: [
          { label: 'no credentials', expect: [403] },
          { label: "B's JWT, no sender token", headers: bearer(bob), expect: [403] },
          { label: 'a forged sender token', headers: { 'x-sender-token': forgedToken() }, expect: [403] },
          {
            label: 'an upload token as sender token',
            headers: { 'x-sender-token': uploading.uploadToken },
            expect: [403],
          },
          {
            label: "a guest's token sending as another address",
            headers: { 'x-sender-token': guest },
            body: { senderEmail: VICTIM_GUEST },
            expect: [403],
          },
        ],
      };
    },
  },

  'guest-sender:mailed-code': {
    async setup() {
      const victimCode = await mailedCode('/verifyEmail', VICTIM_GUEST);
      const otherCode = await mailedCode('/verifyEmail', 'other.guest@example.com');
      const wrong = victimCode === '00000' ? '11111' : '00000';
      return {
        path: {},
        body: { email: VICTIM_GUEST },
        attempts: [
          ...(otherCode !== victimCode
            ? [{ label: "another address's code", body: { code: otherCode }, expect: [403] }]
            : []),
          { label: 'a forged code', body: { code: wrong }, expect: [403] },
          { label: "B's JWT with a forged code", headers: bearer(bob), body: { code: wrong }, expect: [403] },
          { label: 'no code', omit: ['code'], expect: [400] },
        ],
      };
    },
  },

  'registration:mailed-code': {
    async setup() {
      const victimCode = await mailedCode('/newsignupverify', 'victim.new@example.com');
      const otherCode = await mailedCode('/newsignupverify', 'other.new@example.com');
      const wrong = victimCode === '00000' ? '11111' : '00000';
      return {
        path: {},
        body: { email: 'victim.new@example.com' },
        attempts: [
          ...(otherCode !== victimCode
            ? [{ label: "another address's code", body: { code: otherCode }, expect: [403] }]
            : []),
          { label: 'a forged code', body: { code: wrong }, expect: [403] },
          { label: 'no code', omit: ['code'], expect: [400] },
        ],
      };
    },
  },

  'registration:proof-token': {
    async setup() {
      const email = 'prover.new@example.com';
      const code = await mailedCode('/newsignupverify', email);
      const proof = await api(app, '/newsignupverify/check', json({ email, code }));
      expect(proof.status, proof.text).toBe(200);
      const otherToken = proof.json.registrationToken as string;
      return {
        path: {},
        body: { email: 'victim.signup@example.com', fullName: 'Mallory', password: 'Another-pass-123' },
        attempts: [
          { label: "another address's registration token", body: { registrationToken: otherToken }, expect: [403] },
          { label: 'a forged registration token', body: { registrationToken: forgedToken() }, expect: [403] },
          {
            label: "another address's token for an existing account (A's)",
            body: { registrationToken: otherToken, email: alice.email },
            expect: [403, 409],
          },
          { label: 'no registration token', omit: ['registrationToken'], expect: [400] },
        ],
      };
    },
  },

  'account:password': {
    async setup() {
      return {
        path: {},
        body: { email: alice.email },
        attempts: [
          { label: "a wrong password for A's address", body: { password: 'wrong-password-1' }, expect: [401] },
          {
            label: "B's JWT and a wrong password for A's address",
            headers: bearer(bob),
            body: { password: 'wrong-password-2' },
            expect: [401],
          },
          {
            label: 'an unknown address',
            body: { email: 'nobody.here@example.com', password: 'secret123' },
            expect: [401],
          },
          { label: 'no password', omit: ['password'], expect: [400] },
        ],
      };
    },
  },

  'session:refresh-cookie': {
    async setup() {
      // A refused refresh is 401; logout answers every caller alike and must not end A's session.
      return {
        path: {},
        body: {},
        attempts: [
          { label: 'no cookie', expect: [200, 401] },
          { label: 'a forged refresh cookie', headers: { cookie: `sb_refresh=${forgedToken()}` }, expect: [200, 401] },
          {
            label: "B's access token as refresh cookie",
            headers: { cookie: `sb_refresh=${bob.accessToken}` },
            expect: [200, 401],
          },
          { label: "B's JWT, no cookie", headers: bearer(bob), expect: [200, 401] },
        ],
      };
    },
    async after() {
      const again = await api(app, '/refreshToken', { headers: { cookie: aliceCookie } });
      expect(again.status, again.text).toBe(200);
      expect(again.json.user.email).toBe(alice.email);
      // Each renewal rotates the cookie (an old one presented again would end A's session).
      aliceCookie = /sb_refresh=[^;]+/.exec(again.headers.get('set-cookie') ?? '')![0];
    },
  },

  'password-reset:mailed-token': {
    async setup() {
      return {
        path: {},
        body: { password: 'Taken-over-123' },
        attempts: [
          { label: 'a forged reset token', body: { token: forgedToken() }, expect: [410] },
          {
            label: "B's JWT and a forged reset token",
            headers: bearer(bob),
            body: { token: forgedToken() },
            expect: [410],
          },
          { label: 'no token', omit: ['token'], expect: [400] },
        ],
      };
    },
    async after() {
      // A's password is unchanged by every attempt.
      const login = await api(app, '/combinedAuth', json({ email: alice.email, password: 'secret123' }));
      expect(login.status, login.text).toBe(200);
    },
  },

  'extension:mailed-token': {
    async setup() {
      lockedExpiry = (await api(app, '/getDownload', json({ id: locked.id, password: PASSWORD }))).json
        .expiryDate as number;
      return {
        path: {},
        body: {},
        attempts: [
          { label: 'a forged approval token', body: { token: forgedToken() }, expect: [410] },
          {
            label: "B's JWT and a forged approval token",
            headers: bearer(bob),
            body: { token: forgedToken() },
            expect: [410],
          },
          { label: 'no token', omit: ['token'], expect: [400] },
        ],
      };
    },
    async after() {
      const view = await api(app, '/getDownload', json({ id: locked.id, password: PASSWORD }));
      expect(view.json.expiryDate).toBe(lockedExpiry);
    },
  },

  // A's file request, by its requester's JWT
  'request:owner': {
    async setup(route) {
      const path = { id: aliceRequest.id, slug: requestUpload.id };
      const body = route.method === 'PATCH' ? { state: 'closed', title: 'renamed by bob' } : {};
      const isDelete = route.method === 'DELETE';
      return {
        path,
        body,
        attempts: [
          { label: "B's JWT", headers: bearer(bob), expect: [404] },
          { label: 'a guest (sender token, no JWT)', headers: { 'x-sender-token': visitor }, expect: [401] },
          { label: 'no credentials', expect: [401] },
          {
            label: "the visitor's upload token instead of a JWT",
            headers: { 'x-upload-token': requestUpload.uploadToken },
            expect: [401],
          },
          {
            label: "a forged JWT (A's with a broken signature)",
            headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
            expect: [401],
          },
          {
            label: "a forged request id with A's JWT",
            path: { id: UNKNOWN_REQUEST },
            headers: bearer(alice),
            expect: [404],
          },
          ...(route.method === 'GET'
            ? [
                {
                  label: "B's JWT listing A's requests by A's id",
                  query: `?userid=${alice.sub}`,
                  headers: bearer(bob),
                  expect: [403],
                },
              ]
            : []),
          ...(isDelete
            ? [
                {
                  label: "B's JWT on B's own request with A's upload",
                  path: { id: bobRequest.id },
                  headers: bearer(bob),
                  expect: [404],
                },
                {
                  label: "A's JWT with the upload under A's other request",
                  path: { id: closedRequest.id },
                  headers: bearer(alice),
                  expect: [404],
                },
              ]
            : []),
        ],
      };
    },
    async after() {
      const d = await api(app, `/requests?slug=${aliceRequest.id}`, { headers: bearer(alice) });
      expect(d.status, d.text).toBe(200);
      expect(d.json.request).toMatchObject({ state: 'open', title: aliceRequest.title, uploadCount: 1 });
      expect(d.json.uploads).toEqual([
        expect.objectContaining({
          slug: requestUpload.id,
          senderEmail: VISITOR,
          files: [expect.objectContaining({ fileName: FILE_REQUESTED })],
        }),
      ]);
    },
  },

  // the public request page and a visitor's upload (plus the visitor's sender token)
  'request:link': {
    async setup(route) {
      const uploads = route.method === 'POST';
      return {
        path: { id: aliceRequest.id },
        body: uploads
          ? { senderName: 'Mallory', senderEmail: VISITOR, fileObjects: [{ fileName: 'slipped-in.pdf', size: 5 }] }
          : {},
        attempts: uploads
          ? [
              { label: 'no credentials (no sender token)', expect: [403] },
              { label: "B's JWT, no sender token", headers: bearer(bob), expect: [403] },
              { label: "A's JWT (the requester), no sender token", headers: bearer(alice), expect: [403] },
              { label: 'a forged sender token', headers: { 'x-sender-token': forgedToken() }, expect: [403] },
              {
                label: 'an upload token as sender token',
                headers: { 'x-sender-token': requestUpload.uploadToken },
                expect: [403],
              },
              {
                label: "another guest's token uploading as the visitor's address",
                headers: { 'x-sender-token': guest },
                expect: [403],
              },
              {
                label: 'a forged request id with a real sender token',
                path: { id: UNKNOWN_REQUEST },
                headers: { 'x-sender-token': visitor },
                expect: [404],
              },
              {
                label: 'a closed request with a real sender token',
                path: { id: closedRequest.id },
                headers: { 'x-sender-token': visitor },
                expect: [410],
              },
            ]
          : [
              // The page is public: anyone gets the request's title, message and requester name, never its uploads or addresses.
              { label: 'no credentials', expect: [200] },
              { label: "B's JWT", headers: bearer(bob), expect: [200] },
              { label: 'a forged request id', path: { id: UNKNOWN_REQUEST }, expect: [404] },
              { label: 'a closed request', path: { id: closedRequest.id }, expect: [410] },
            ],
      };
    },
    async after() {
      const d = await api(app, `/requests?slug=${aliceRequest.id}`, { headers: bearer(alice) });
      expect(d.json.request.uploadCount).toBe(1);
      expect(d.json.uploads).toHaveLength(1);
    },
  },

  // the payments simulator's checkout screen, on A's session or SetupIntent by its client secret
  'checkout:owner': {
    async setup(route) {
      const setup = route.path === '/payments/simulated/setup';
      const mine = setup ? aliceSetup! : aliceCheckout!;
      const other = setup ? aliceCheckout! : aliceSetup!;
      const forged = `${mine.secret.split('_secret_')[0]}_secret_${'Q'.repeat(24)}`;
      const q = (secret: string) => `?clientSecret=${encodeURIComponent(secret)}`;
      const aim = (secret: string) =>
        route.method === 'GET' ? { query: q(secret) } : { body: { clientSecret: secret } };
      return {
        path: {},
        body: route.method === 'GET' ? {} : { ...TEST_CARD, clientSecret: mine.secret },
        attempts: [
          { label: "B's JWT with A's client secret", headers: bearer(bob), ...aim(mine.secret), expect: [404] },
          { label: 'no credentials', ...aim(mine.secret), expect: [401] },
          {
            label: 'a guest (sender token, no JWT)',
            headers: { 'x-sender-token': guest },
            ...aim(mine.secret),
            expect: [401],
          },
          {
            label: "a forged JWT (A's with a broken signature)",
            headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
            ...aim(mine.secret),
            expect: [401],
          },
          {
            label: "A's JWT with a forged secret of A's session",
            headers: bearer(alice),
            ...aim(forged),
            expect: [404],
          },
          {
            label: "A's JWT with A's secret of the other kind",
            headers: bearer(alice),
            ...aim(other.secret),
            expect: [404],
          },
        ],
      };
    },
    async after(route) {
      if (route.path === '/payments/simulated/setup') {
        const intent = await getObject<{ status: string }, unknown>(aliceSetup!.id);
        expect(intent?.data.status).toBe('requires_payment_method');
        return;
      }
      const view = await api(
        app,
        `/payments/simulated/checkout?clientSecret=${encodeURIComponent(aliceCheckout!.secret)}`,
        { headers: bearer(alice) },
      );
      expect(view.status, view.text).toBe(200);
      expect(view.json).toMatchObject({ sessionId: aliceCheckout!.id, status: 'open', customerEmail: alice.email });
    },
  },

  self: {
    async setup(route) {
      // the public API's webhook routes name A's endpoint (and delivery) in the path: B's key gets 404.
      if (route.auth === 'key' && route.path.startsWith('/v1/webhooks/{id}')) {
        const w = await aliceWebhookOnce();
        const naming = {
          url: 'http://127.0.0.1:9/bob',
          events: ['transfer.created'],
          enabled: false,
          description: 'by bob',
          graceHours: 0,
        };
        return {
          path: { id: w.id, deliveryId: w.deliveryId },
          body: {},
          attempts: [
            ...keyAttempts(route),
            {
              label: "B's key (every scope) naming A's endpoint",
              headers: keyAuth(bobKey.key),
              ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: naming }),
              expect: [404],
            },
          ],
        };
      }
      if (route.auth === 'key') {
        // The key's user alone chooses the records: B's key, naming A's things in the body, gets B's or a refusal.
        const naming = {
          slug: sent.id,
          id: sent.id,
          userId: alice.sub,
          userid: alice.sub,
          email: alice.email,
          title: 'made by bob',
          fileObjects: [{ fileName: 'bob.txt', size: 3 }],
          sendAs: 'link',
        };
        return {
          path: {},
          body: {},
          attempts: [
            ...keyAttempts(route),
            ...(route.method === 'GET'
              ? [
                  {
                    label: "B's key",
                    headers: keyAuth(bobKey.key),
                    query: `?userid=${alice.sub}&slug=${sent.id}`,
                    expect: [200],
                  },
                ]
              : [
                  {
                    label: "B's key, body naming A's records",
                    headers: keyAuth(bobKey.key),
                    body: naming,
                    expect: [200, 201, 400, 403, 404, 409],
                  },
                ]),
          ],
        };
      }
      // Only the JWT's `sub` chooses the record. B, naming A's things in the body, gets B's or a refusal.
      // `userid` + `region`: PATCH /settings/region names the account in its body (spec §7); A's id from B is refused.
      const naming = {
        profilePicKey: `u/${alice.sub}/profile-abcdefabcdef`,
        email: alice.email,
        userId: alice.sub,
        userid: alice.sub,
        region: 'frankfurt',
        slug: sent.id,
        message: 'hi',
        kind: 'profile',
        contentType: 'image/png',
        size: 10,
        notifyId: aliceNotifyId,
      };
      // the billing routes name the account in their bodies (spec §3, §7): A's ids from B are refused.
      Object.assign(naming, {
        mongo_id: alice.sub,
        customer_email: alice.email,
        price_id: 'price_sim_pro_month',
        SSuserId: alice.sub,
        priceId: 'price_sim_business_month',
        paymentMethodId: 'pm_of_alice',
        cancel: true,
        code: 'SB-AAAA-BBBB-CCCC-DDDD',
      });
      // The contacts routes: B names A's contact's address (add, edit, move, remove, import it); only B's own contacts may change.
      if (route.path.startsWith('/contacts')) {
        Object.assign(naming, {
          email: ALICE_CONTACT.email,
          name: 'Renamed by Bob',
          company: 'Bob Co',
          newEmail: 'moved.by.bob@example.com',
          csv: `email,name,company\n${ALICE_CONTACT.email},Renamed by Bob,Bob Co\n`,
        });
      }
      // the webhook routes name an endpoint (and a delivery) in the path: B naming A's is not found.
      if (route.path.startsWith('/webhooks/{id}')) {
        const w = await aliceWebhookOnce();
        Object.assign(naming, {
          url: 'http://127.0.0.1:9/bob',
          events: ['transfer.created'],
          enabled: false,
          description: 'by bob',
        });
        return {
          path: { id: w.id, deliveryId: w.deliveryId },
          body: {},
          attempts: [
            { label: 'no credentials', expect: [401] },
            {
              label: "a forged JWT (A's with a broken signature)",
              headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
              expect: [401],
            },
            {
              label: "B's JWT naming A's endpoint",
              headers: bearer(bob),
              ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: naming }),
              expect: [404],
            },
          ],
        };
      }
      return {
        path: {},
        body: {},
        attempts: [
          { label: 'no credentials', expect: [401] },
          {
            label: "a forged JWT (A's with a broken signature)",
            headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
            expect: [401],
          },
          { label: 'a guest (sender token, no JWT)', headers: { 'x-sender-token': guest }, expect: [401] },
          // (409: the billing routes when B has no subscription of B's own to change)
          ...(route.method === 'GET'
            ? []
            : [
                {
                  label: "B's JWT, body naming A's records",
                  headers: bearer(bob),
                  body: naming,
                  expect: [200, 201, 202, 400, 403, 404, 409],
                },
              ]),
          ...(route.method === 'GET' ? [{ label: "B's JWT", headers: bearer(bob), expect: [200] }] : []),
        ],
      };
    },
    async after(route) {
      if (route.path.startsWith('/webhooks') || route.path.startsWith('/v1/webhooks')) {
        // A's endpoint is still hers, unchanged, whatever B sent.
        const w = await aliceWebhookOnce();
        const mine = await api(app, '/webhooks', { headers: bearer(alice) });
        expect(mine.json.endpoints, `${route.method} ${route.path}`).toEqual([
          expect.objectContaining({
            id: w.id,
            url: 'http://127.0.0.1:9/hook',
            enabled: true,
            description: 'alice-webhook',
            events: ['transfer.expired'],
          }),
        ]);
        return;
      }
      if (route.path.startsWith('/contacts') || route.path === '/quicksend2') {
        // A's contact is still hers, unchanged, whatever B sent.
        const mine = await api(app, '/contacts', { headers: bearer(alice) });
        expect(mine.json.contacts, `${route.method} ${route.path}`).toEqual([expect.objectContaining(ALICE_CONTACT)]);
        return;
      }
      // B naming A's userid did not move A's storage region.
      if (route.path === '/settings/region') {
        expect((await api(app, '/me', { headers: bearer(alice) })).json.region, 'A keeps the default region').toBe(
          'hongkong',
        );
        return;
      }
      // B naming A's notification neither marked it read nor deleted it.
      if (!/otification/u.test(route.path)) return;
      const notes = await api(app, '/notifications', json({}, bearer(alice)));
      expect(notes.json.notifications, `${route.method} ${route.path}`).toEqual([
        expect.objectContaining({ _id: aliceNotifyId, read: false }),
      ]);
    },
  },

  // the payment provider's webhook: only the provider's signature over the raw body proves an event.
  'payment-event:signature': {
    async setup() {
      // A forged event that would make A teamelite if it were believed.
      const forged = {
        id: 'evt_forged_by_bob',
        object: 'event',
        type: 'customer.subscription.updated',
        created: Math.floor(Date.now() / 1000) + 86_400,
        data: {
          object: {
            id: 'sub_forged',
            object: 'subscription',
            customer: 'cus_forged',
            status: 'active',
            items: {
              data: [
                {
                  id: 'si_forged',
                  price: {
                    id: 'price_sim_teamelite_month',
                    object: 'price',
                    nickname: null,
                    unit_amount: 1,
                    currency: 'usd',
                    recurring: { interval: 'month' },
                    metadata: { role: 'teamelite' },
                  },
                },
              ],
            },
            trial_end: null,
            current_period_end: Math.floor(Date.now() / 1000) + 30 * 86_400,
            cancel_at_period_end: false,
            canceled_at: null,
            created: Math.floor(Date.now() / 1000),
            metadata: { userId: alice.sub },
            default_payment_method: null,
          },
        },
      };
      const t = Math.floor(Date.now() / 1000);
      return {
        path: {},
        body: forged,
        attempts: [
          { label: 'no signature', expect: [400] },
          { label: "B's JWT, no signature", headers: bearer(bob), expect: [400] },
          { label: "A's JWT, no signature", headers: bearer(alice), expect: [400] },
          {
            label: 'a forged signature',
            headers: { 'stripe-signature': `t=${t},v1=${'ab'.repeat(32)}` },
            expect: [400],
          },
          {
            label: 'an old forged signature',
            headers: { 'stripe-signature': `t=${t - 3600},v1=${'cd'.repeat(32)}` },
            expect: [400],
          },
        ],
      };
    },
    async after() {
      expect((await api(app, '/me', { headers: bearer(alice) })).json.role, 'A keeps her plan').toBe('pro');
    },
  },

  // A's pending invite, by A's JWT (the admin's handle on it in the path)
  'team-invite:owner': {
    async setup() {
      return {
        path: { id: aliceInvite.id },
        body: {},
        attempts: [
          { label: "B's JWT", headers: bearer(bob), expect: [404] },
          { label: "A's team member's JWT", headers: bearer(aliceMember), expect: [403] },
          { label: 'a guest (sender token, no JWT)', headers: { 'x-sender-token': guest }, expect: [401] },
          { label: 'no credentials', expect: [401] },
          {
            label: "a forged JWT (A's with a broken signature)",
            headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
            expect: [401],
          },
          {
            label: "a forged invite id with A's JWT",
            path: { id: 'Zq9Xw2KpZq9Xw2Kp' },
            headers: bearer(alice),
            expect: [404],
          },
          {
            label: "the mailed token as the id with A's JWT",
            path: { id: aliceInvite.token },
            headers: bearer(alice),
            expect: [400, 404],
          },
        ],
      };
    },
    async after() {
      const team = await api(app, '/teams', { headers: bearer(alice) });
      expect(team.json.invites).toEqual([
        expect.objectContaining({ id: aliceInvite.id, email: ALICE_INVITEE, state: 'pending' }),
      ]);
      expect((await api(app, `/invite/${aliceInvite.token}`)).status, 'the link still works').toBe(200);
    },
  },

  // A's team member, by A's JWT
  'team-member:owner': {
    async setup() {
      return {
        path: { id: aliceMember.sub },
        body: {},
        attempts: [
          { label: "B's JWT", headers: bearer(bob), expect: [404] },
          { label: "the member's own JWT", headers: bearer(aliceMember), expect: [403] },
          { label: 'a guest (sender token, no JWT)', headers: { 'x-sender-token': guest }, expect: [401] },
          { label: 'no credentials', expect: [401] },
          {
            label: "a forged JWT (A's with a broken signature)",
            headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
            expect: [401],
          },
          {
            label: "an unknown member id with A's JWT",
            path: { id: UNKNOWN_MEMBER },
            headers: bearer(alice),
            expect: [404],
          },
          { label: "B's id as a member with A's JWT", path: { id: bob.sub }, headers: bearer(alice), expect: [404] },
        ],
      };
    },
    async after() {
      const me = await api(app, '/me', { headers: bearer(aliceMember) });
      expect(me.json).toMatchObject({ isTeamMember: true, parentAdmin: { parentAdminID: alice.sub } });
    },
  },

  // the invite page and accepting it: only the mailed token, and only for the invited address
  'team-invite:mailed-token': {
    async setup(route) {
      if (route.method === 'GET') {
        return {
          path: { id: 'f'.repeat(43) },
          body: {},
          attempts: [
            { label: 'a forged token', expect: [404] },
            { label: "B's JWT and a forged token", headers: bearer(bob), expect: [404] },
            { label: "A's JWT and a forged token", headers: bearer(alice), expect: [404] },
            { label: "the admin's invite id instead of the token", path: { id: aliceInvite.id }, expect: [400, 404] },
          ],
        };
      }
      return {
        path: {},
        body: { fullName: 'Mallory', password: 'Taken-over-123', newMemberEmail: ALICE_INVITEE },
        attempts: [
          { label: 'a forged token', body: { token: forgedToken() }, expect: [404] },
          {
            label: "A's token for another address",
            body: { token: aliceInvite.token, newMemberEmail: 'mallory@example.com' },
            expect: [403],
          },
          {
            label: "A's token for B's address (B has an account)",
            headers: bearer(bob),
            body: { token: aliceInvite.token, newMemberEmail: bob.email },
            expect: [403, 409],
          },
          { label: "the admin's invite id as the token", body: { token: aliceInvite.id }, expect: [400, 404] },
          { label: 'no token', omit: ['token'], expect: [400] },
        ],
      };
    },
    async after() {
      const info = await api(app, `/invite/${aliceInvite.token}`);
      expect(info.json).toMatchObject({ email: ALICE_INVITEE, state: 'pending' });
    },
  },

  // A's API key, by A's JWT (keys never manage keys)
  'api-key:owner': {
    async setup() {
      return {
        path: { id: aliceKey.id },
        body: {},
        attempts: [
          { label: 'no credentials', expect: [401] },
          { label: "B's JWT", headers: bearer(bob), expect: [404] },
          { label: "A's own key instead of A's JWT", headers: keyAuth(aliceKey.key), expect: [401] },
          {
            label: "a forged JWT (A's with a broken signature)",
            headers: { authorization: `Bearer ${tampered(alice.accessToken)}` },
            expect: [401],
          },
          {
            label: "B's JWT and an unknown key id",
            path: { id: 'Zq9Xw2KpZq9Xw2Kp' },
            headers: bearer(bob),
            expect: [404],
          },
        ],
      };
    },
    async after() {
      const res = await api(app, '/v1/transfers', { headers: keyAuth(aliceKey.key) });
      expect(res.status, res.text).toBe(200);
      const list = await api(app, '/me/api-keys', { headers: bearer(bob) });
      expect(list.json.keys).toEqual([expect.objectContaining({ id: bobKey.id })]);
    },
  },

  'receipt:signature': {
    async setup() {
      // A's receipt of their delivery; the route answers whether it is genuine and still recorded, nothing more
      const res = await api(app, `/transfers/${sent.id}/deliveries/${SENT_DELIVERY}/receipt`, {
        headers: bearer(alice),
      });
      expect(res.status, res.text).toBe(200);
      const jws = (res.json as { jws: string }).jws;
      const [header, payload, signature] = jws.split('.') as [string, string, string];
      const flipped = `${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`;
      const otherKeys = fileKeyStore(path.join(mkdtempSync(path.join(tmpdir(), 'idor-keys-')), 'keys.json'));
      const forged = await signReceipt(
        JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')),
        await ensureKeySet(otherKeys),
      );
      return {
        path: {},
        body: { jws },
        attempts: [
          { label: "A's own receipt, no credentials (answers valid and recorded only)", expect: [200] },
          { label: 'its signature changed', body: { jws: `${header}.${payload}.${flipped}` }, expect: [200] },
          { label: 'signed by a key the deployment never published', body: { jws: forged.jws }, expect: [200] },
          {
            label: "B's JWT with A's receipt changed",
            headers: bearer(bob),
            body: { jws: `${header}.${payload}.${flipped}` },
            expect: [200],
          },
        ],
      };
    },
  },

  public: {
    async setup(route) {
      // Names no one's record: asked about A's address, the answer is the neutral one.
      return {
        path: {},
        body: route.method === 'GET' ? {} : { email: alice.email, lang: 'en' },
        // GET /branding?host= answers one 404 for a host that is no one's verified domain.
        attempts: [{ label: 'no credentials', expect: route.path === '/branding' ? [404] : [200, 202, 409] }],
      };
    },
  },
};

beforeAll(async () => {
  await loadRouteSchemas();
  app = await startTestApp();
  alice = await createUser(app, 'alice.owner@example.com');
  bob = await createUser(app, 'bob.other@example.com');
  guest = await guestToken(app, GUEST);
  // review on: the review routes' tries reach a review that exists (recipients' and the sender's)
  sent = await createAndUpload(alice, FILE_SENT, { review: true });
  // a delivery of A's transfer, whose rows and receipt only A may read
  await putDelivery({
    slug: sent.id,
    deliveryId: SENT_DELIVERY,
    startedAt: Date.now() - 1000,
    at: Date.now(),
    what: 'file',
    recipient: { kind: 'personal', email: alice.email },
    countryCode: 'DE',
    files: [{ fileId: sent.files[0]!.fileId, path: FILE_SENT, size: 9 }],
    bytes: 9,
    servedWhole: true,
  });
  locked = await createAndUpload(alice, FILE_LOCKED, { password: PASSWORD, review: true });
  uploading = await createAndUpload(alice, FILE_UPLOADING, {}, false);
  bobs = await createAndUpload(bob, 'bob-own-file.txt', {}, false);
  const login = await api(app, '/combinedAuth', json({ email: alice.email, password: 'secret123' }));
  expect(login.status, login.text).toBe(200);
  aliceCookie = /sb_refresh=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];
  // A download of A's transfer: A gets a notification and analytics naming FILE_SENT.
  const dl = await api(app, '/getDownload/file', {
    ...json({ id: sent.id, fileId: sent.files[0]!.fileId }),
    headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': 'DE' },
  });
  expect(dl.status, dl.text).toBe(200);
  aliceNotifyId = (await api(app, '/notifications', json({}, bearer(alice)))).json.notifications[0]._id as string;
  const contact = await api(app, '/contacts', json(ALICE_CONTACT, bearer(alice)));
  expect(contact.status, contact.text).toBe(201);
  // A's requests (one with a visitor's upload, one closed) and B's own
  const newRequest = async (user: TestUser, title: string) => {
    const res = await api(app, '/requests', json({ title, message: 'please send' }, bearer(user)));
    expect(res.status, res.text).toBe(201);
    return res.json as RequestSummary;
  };
  aliceRequest = await newRequest(alice, 'Alice asks for a passport scan');
  closedRequest = await newRequest(alice, 'Alice closed this one');
  bobRequest = await newRequest(bob, 'Bob asks too');
  expect(
    (await api(app, `/requests/${closedRequest.id}`, json({ state: 'closed' }, bearer(alice), 'PATCH'))).status,
  ).toBe(200);
  visitor = await guestToken(app, VISITOR);
  const data = randomData(48);
  const start = await api(
    app,
    `/r/${aliceRequest.id}/uploads`,
    json(
      { senderName: 'Vera', senderEmail: VISITOR, fileObjects: [{ fileName: FILE_REQUESTED, size: data.length }] },
      { 'x-sender-token': visitor },
    ),
  );
  expect(start.status, start.text).toBe(201);
  requestUpload = start.json as CreateTransferResponse;
  await uploadAll(app, requestUpload, new Map([[FILE_REQUESTED, data]]));
  expect((await completeTransfer(app, requestUpload)).status).toBe(200);
  // The upload rang A's bell; the notification cells aim at the download's notification alone.
  const bell = (await api(app, '/notifications', json({}, bearer(alice)))).json.notifications as {
    _id: string;
    kind?: string;
  }[];
  const rung = bell.find((n) => n.kind === 'request-upload');
  expect(rung, 'the request upload notified A').toBeDefined();
  expect((await api(app, '/deleteNotification', json({ notifyId: rung!._id }, bearer(alice)))).status).toBe(200);
  // A pays one checkout (so A is a customer with a SetupIntent) and has another open.
  const session = (priceId: string) =>
    simulator().createCheckoutSession({
      price: priceView(simPrice(priceId)!),
      userId: alice.sub,
      customerEmail: alice.email,
      trialDays: 7,
      returnUrl: 'http://127.0.0.1:5999/thankyou2?session_id={CHECKOUT_SESSION_ID}',
    });
  const paid = await session('price_sim_pro_month');
  const pay = await api(
    app,
    '/payments/simulated/checkout',
    json({ clientSecret: paid.client_secret, ...TEST_CARD }, bearer(alice)),
  );
  expect(pay.status, pay.text).toBe(200);
  const open = await session('price_sim_business_year');
  aliceCheckout = { id: open.id, secret: open.client_secret };
  const intent = await simulator().createSetupIntent((await simulator().retrieveCheckoutSession(paid.id))!.customer!);
  aliceSetup = { id: intent.id, secret: intent.client_secret };
  const tokenOf = async (email: string) =>
    /\/invite\/([A-Za-z0-9_-]{43})/.exec((await waitForMail(app, email, /\/invite\//)).body.text)![1]!;
  const mint = async (user: TestUser, scopes: string[]) => {
    const res = await api(app, '/me/api-keys', json({ name: 'idor', scopes }, bearer(user)));
    expect(res.status, res.text).toBe(201);
    return { id: res.json.id as string, key: res.json.key as string };
  };
  // A's former team member: shared with, sending and holding a key while in the team, then removed (the seat comes back).
  expect((await api(app, '/teams/invites', json({ email: REMOVED }, bearer(alice)))).status).toBe(201);
  const formerJoin = await api(
    app,
    '/v1/teams',
    json(
      { token: await tokenOf(REMOVED), newMemberEmail: REMOVED, fullName: 'Rae Former', password: 'Member-pass-123' },
      {},
      'PATCH',
    ),
  );
  expect(formerJoin.status, formerJoin.text).toBe(201);
  const inTeam: TestUser = {
    email: REMOVED,
    accessToken: formerJoin.json.accessToken as string,
    sub: formerJoin.json.user._id as string,
  };
  expect((await api(app, '/teams/api-keys', json({ membersAllowed: true }, bearer(alice), 'PUT'))).status).toBe(200);
  removedKey = (await mint(inTeam, ALL_SCOPES)).key;
  sharedToRemoved = await createAndUpload(alice, FILE_SHARED_TO_REMOVED, { shareWith: [inTeam.sub] });
  sentByRemoved = await createAndUpload(inTeam, FILE_SENT_BY_REMOVED);
  // While in the team they read both (so the removed member's cells can fail).
  for (const t of [sharedToRemoved, sentByRemoved]) {
    expect((await api(app, `/transfers/${t.id}/previews`, { headers: bearer(inTeam) })).status).toBe(200);
    expect((await api(app, `/v1/transfers/${t.id}`, { headers: keyAuth(removedKey) })).status).toBe(200);
  }
  expect((await api(app, `/teams/members/${inTeam.sub}`, { method: 'DELETE', headers: bearer(alice) })).status).toBe(
    200,
  );
  expect((await api(app, '/teams/api-keys', json({ membersAllowed: false }, bearer(alice), 'PUT'))).status).toBe(200);
  const again = await api(app, '/combinedAuth', json({ email: REMOVED, password: 'Member-pass-123' }));
  expect(again.status, again.text).toBe(200);
  removed = { email: REMOVED, accessToken: again.json.accessToken as string, sub: inTeam.sub };
  // A (pro: 2 seats) has a member and a pending invite
  expect((await api(app, '/teams/invites', json({ email: ALICE_MEMBER }, bearer(alice)))).status).toBe(201);
  const joined = await api(
    app,
    '/v1/teams',
    json(
      {
        token: await tokenOf(ALICE_MEMBER),
        newMemberEmail: ALICE_MEMBER,
        fullName: 'Alice Member',
        password: 'Member-pass-123',
      },
      {},
      'PATCH',
    ),
  );
  expect(joined.status, joined.text).toBe(201);
  aliceMember = {
    email: ALICE_MEMBER,
    accessToken: joined.json.accessToken as string,
    sub: joined.json.user._id as string,
  };
  const invited = await api(app, '/teams/invites', json({ email: ALICE_INVITEE }, bearer(alice)));
  expect(invited.status, invited.text).toBe(201);
  aliceInvite = { id: invited.json.id as string, token: await tokenOf(ALICE_INVITEE) };
  // API keys
  aliceKey = await mint(alice, ALL_SCOPES);
  bobKey = await mint(bob, ALL_SCOPES);
  aliceSendOnly = (await mint(alice, ['send'])).key;
  aliceWebhooksOnly = (await mint(alice, ['webhooks'])).key;
  const revoked = await mint(alice, ALL_SCOPES);
  expect((await api(app, `/me/api-keys/${revoked.id}`, { method: 'DELETE', headers: bearer(alice) })).status).toBe(200);
  aliceRevokedKey = revoked.key;
});

afterAll(async () => {
  await app?.stop();
});

/** The query string of a route that names its record there (GET /getQs?slug=). */
function queryFor(route: ApiRoute, ids: { id?: string }): string {
  switch (`${route.method} ${route.path}`) {
    case 'GET /getQs':
      return `?slug=${ids.id ?? UNKNOWN_ID}`;
    case 'GET /requests':
      return `?slug=${ids.id ?? UNKNOWN_REQUEST}`;
    case 'GET /payments/simulated/checkout':
      return `?clientSecret=${encodeURIComponent(aliceCheckout?.secret ?? 'cs_unknown')}`;
    case 'GET /analytics':
    case 'GET /analytics/downloads':
      return `?from=${TODAY}&to=${TODAY}`;
    case 'GET /branding':
      return '?host=files.alice-owner.example.com';
    default:
      return '';
  }
}

function urlOf(
  route: ApiRoute,
  path: { id?: string; fileId?: string; slug?: string; deliveryId?: string },
  query?: string,
): string {
  return (
    route.path
      .replace('{id}', path.id ?? UNKNOWN_ID)
      .replace('{fileId}', path.fileId ?? 'AAAAAAAAAA')
      .replace('{slug}', path.slug ?? UNKNOWN_ID)
      .replace('{deliveryId}', path.deliveryId ?? 'wd_aaaaaaaaaaaaaaaaaaaa')
      .replace('{commentId}', SOME_THREAD) + (query ?? queryFor(route, path))
  );
}

describe('IDOR matrix: every route of functions/routes.ts by what it owns', () => {
  it('every route declares a kind this matrix can exercise, consistent with its auth', () => {
    const unknown = routes
      .filter((r) => !(ownsKindOf(r.owns) in CELLS))
      .map((r) => `${r.method} ${r.path} (${ownsKindOf(r.owns)})`);
    expect(unknown, 'routes whose owns kind idor.test.ts cannot exercise yet: teach CELLS how').toEqual([]);
    for (const r of routes) {
      const kind = ownsKindOf(r.owns);
      // the public API's routes ('key') own the same records as the app's, by the key's user
      if (r.auth === 'key')
        expect(['self', 'transfer:owner', 'request:owner'], `${r.method} ${r.path} is ${kind}`).toContain(kind);
      else if (
        kind === 'self' ||
        kind === 'transfer:owner' ||
        kind === 'request:owner' ||
        kind === 'checkout:owner' ||
        kind === 'team-invite:owner' ||
        kind === 'team-member:owner' ||
        kind === 'api-key:owner'
      )
        expect(r.auth, `${r.method} ${r.path} is ${kind}`).toBe('jwt');
      else expect(r.auth, `${r.method} ${r.path} is ${kind}`).toBe('none');
    }
  });

  it('the owner gets the data the attempts must not (the matrix can fail)', async () => {
    const state = await api(app, `/transfers/${uploading.id}/upload-state`, {
      headers: { 'x-upload-token': uploading.uploadToken },
    });
    expect(state.text).toContain(FILE_UPLOADING);
    const view = await api(app, '/getDownload', json({ id: locked.id, password: PASSWORD }));
    expect(view.text).toContain(FILE_LOCKED);
    expect(view.text).toContain(alice.email);
    const me = await api(app, '/me', { headers: bearer(alice) });
    expect(me.text).toContain(alice.sub);
    const notes = await api(app, '/notifications', json({}, bearer(alice)));
    expect(notes.json.notifications).toEqual([
      expect.objectContaining({ _id: aliceNotifyId, fileName: FILE_SENT, read: false }),
    ]);
    for (const path of ['/analytics', '/analytics/downloads'])
      expect((await api(app, `${path}?from=${TODAY}&to=${TODAY}`, { headers: bearer(alice) })).text).toContain(
        FILE_SENT,
      );
    for (const path of ['/contacts', '/contacts/export'])
      expect((await api(app, path, { headers: bearer(alice) })).text).toContain(ALICE_CONTACT.company);
    expect((await api(app, '/quicksend2', json({}, bearer(alice)))).text).toContain(ALICE_CONTACT.name);
    for (const path of [
      `/transfers/${sent.id}/deliveries`,
      `/transfers/${sent.id}/deliveries/${SENT_DELIVERY}/receipt`,
    ])
      expect((await api(app, path, { headers: bearer(alice) })).text).toContain(FILE_SENT);
  });

  it("the removed member's lists show nothing of A's team; the shares and the member's key went with the membership", async () => {
    for (const filter of ['all', 'shared']) {
      const res = await api(app, `/getQs?filter=${filter}`, { headers: bearer(removed) });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ allDocs: [], allCount: 0, sharedCount: 0 });
    }
    expect((await api(app, '/me/api-keys', { headers: bearer(removed) })).json.keys).toEqual([]);
    const shares = await ddb().query({
      TableName: config().tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': keys.sharedWithPartition(removed.sub) },
    });
    expect(shares.Items).toEqual([]);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (name, route) => {
    const cell = CELLS[ownsKindOf(route.owns)];
    if (!cell) throw new Error(`${name}: owns ${ownsKindOf(route.owns)} is not in the matrix`);
    const { path, body, attempts: byOthers } = await cell.setup(route);
    const asRemoved = removedMemberAttempts(route, byOthers);
    expect(asRemoved.length, `${name}: the removed member tries it`).toBeGreaterThan(0);
    const attempts = [...byOthers, ...asRemoved];
    // The webhook reads its raw body without a schema (its signature covers the exact bytes).
    const readsBody = routeSchemas(route).body !== undefined || ownsKindOf(route.owns) === 'payment-event:signature';
    if (
      readsBody &&
      ownsKindOf(route.owns).startsWith('transfer:') &&
      bodyFor(route, { id: UNKNOWN_ID, fileId: 'AAAAAAAAAA' }) === undefined
    ) {
      throw new Error(`${name} reads a body: give idor.test.ts bodyFor() its valid body`);
    }
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) {
      const target = { ...path, ...a.path };
      // The record's ids go where the route reads them: the path, or the body (built per try, so a forged id reaches the body too).
      const sentBody = readsBody
        ? {
            ...bodyFor(route, { id: target.id ?? UNKNOWN_ID, fileId: target.fileId ?? 'AAAAAAAAAA' }),
            ...body,
            ...a.body,
          }
        : undefined;
      for (const k of a.omit ?? []) delete sentBody?.[k];
      const res = await api(app, urlOf(route, target, a.query), {
        method: route.method,
        headers: Object.fromEntries(
          Object.entries({ ...(sentBody ? { 'content-type': 'application/json' } : {}), ...a.headers }).filter(
            (e): e is [string, string] => e[1] !== undefined,
          ),
        ),
        ...(sentBody ? { body: JSON.stringify(sentBody) } : {}),
      });
      const where = `${route.method} ${API_PREFIX}${route.path} with ${a.label}: ${res.status} ${res.text}`;
      expect(a.expect, where).toContain(res.status);
      for (const secret of aliceSecrets())
        expect(res.text.includes(secret), `${where} carries A's ${secret}`).toBe(false);
      if (res.status >= 400) expect(res.text, where).not.toMatch(CREDENTIAL_KEYS);
    }
    await cell.after?.(route);
  });
});
