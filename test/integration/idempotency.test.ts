/**
 * The Idempotency-Key the app's client sends with its creates, against the local
 * emulators through the local gateway. The same key twice makes one transfer and answers the
 * same body; the same key with another body is 422 `idempotency_key_reused`; another user's (or
 * guest's) key is their own and replays nothing of someone else's; a failed call gives its key
 * back; two racing calls with one key still make one transfer. The records are the real
 * conditional writes on DynamoDB Local (docs/data-model.md pattern IK1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { ListRequestsResponse } from '../../functions/domain/requests-api';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, guestToken, json, randomData, uploadAll, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
const GUEST = 'guest.idem@example.com';
const OTHER_GUEST = 'other.idem@example.com';
let guestTok: string;
let otherGuestTok: string;
const table = () => app.stack.env.TABLE_NAME!;

beforeAll(async () => {
  app = await startTestApp();
  alice = await createUser(app, 'alice.idem@example.com', 'pro');
  bob = await createUser(app, 'bob.idem@example.com', 'pro');
  guestTok = await guestToken(app, GUEST);
  otherGuestTok = await guestToken(app, OTHER_GUEST);
});

afterAll(async () => {
  await app?.stop();
});

const key = () => `k-${crypto.randomUUID()}`;
const draft = (fileName: string, extra: Record<string, unknown> = {}) => ({
  sendAs: 'link',
  fileObjects: [{ fileName, size: 5 }],
  ...extra,
});

/** Transfers in the table whose first file is `fileName` (names are unique per test). */
async function transfersNamed(fileName: string): Promise<{ slug: string; senderId?: string; senderEmail: string }[]> {
  const found: { slug: string; senderId?: string; senderEmail: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: 'sk = :meta AND fileName = :name',
        ExpressionAttributeValues: { ':meta': 'META', ':name': fileName },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const i of out.Items ?? [])
      found.push({
        slug: String(i.slug),
        ...(i.senderId ? { senderId: String(i.senderId) } : {}),
        senderEmail: String(i.senderEmail),
      });
    start = out.LastEvaluatedKey;
  } while (start);
  return found;
}

/** Transfers (pk) holding a file named `fileName`: upload starts name no first file on their META. */
async function transfersWithFile(fileName: string): Promise<string[]> {
  const found = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: 'begins_with(sk, :file) AND fileName = :name',
        ExpressionAttributeValues: { ':file': keys.filePrefix, ':name': fileName },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const i of out.Items ?? []) found.add(String(i.pk));
    start = out.LastEvaluatedKey;
  } while (start);
  return [...found];
}

describe('Idempotency-Key on transfer creation', () => {
  it('the same key twice makes one transfer and answers the same body, marked as replayed', async () => {
    const k = key();
    const body = draft('once-only.txt');
    const first = await api(app, '/me/transfers', json(body, { ...bearer(alice), 'idempotency-key': k }));
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await api(app, '/me/transfers', json(body, { ...bearer(alice), 'idempotency-key': k }));
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    const stored = await transfersNamed('once-only.txt');
    expect(stored.map((t) => t.slug)).toEqual([first.json.id]);
    expect(stored[0]!.senderId).toBe(alice.sub);

    // the replayed answer is a working one: its upload token uploads and completes the transfer
    const t = again.json as CreateTransferResponse;
    await uploadAll(app, t, new Map([['once-only.txt', randomData(5)]]));
    const ck = key();
    const done = await api(
      app,
      `/transfers/${t.id}/complete`,
      json({}, { 'x-upload-token': t.uploadToken, 'idempotency-key': ck }),
    );
    expect(done.status, done.text).toBe(200);
    const doneAgain = await api(
      app,
      `/transfers/${t.id}/complete`,
      json({}, { 'x-upload-token': t.uploadToken, 'idempotency-key': ck }),
    );
    expect(doneAgain.status, doneAgain.text).toBe(200);
    expect(doneAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(doneAgain.json).toEqual(done.json);
  });

  it('the same key with a different body is 422 idempotency_key_reused, and makes nothing', async () => {
    const k = key();
    const first = await api(
      app,
      '/me/transfers',
      json(draft('reused-a.txt'), { ...bearer(alice), 'idempotency-key': k }),
    );
    expect(first.status, first.text).toBe(201);
    const other = await api(
      app,
      '/me/transfers',
      json(draft('reused-b.txt'), { ...bearer(alice), 'idempotency-key': k }),
    );
    expect(other.status, other.text).toBe(422);
    expect(other.json.error.code).toBe('idempotency_key_reused');
    expect(await transfersNamed('reused-b.txt')).toEqual([]);
    // and on another route
    const onRequests = await api(
      app,
      '/requests',
      json({ title: 'Same key elsewhere' }, { ...bearer(alice), 'idempotency-key': k }),
    );
    expect(onRequests.status, onRequests.text).toBe(422);
    expect(onRequests.json.error.code).toBe('idempotency_key_reused');
  });

  it("another user's key replays nothing: the same key and body make bob his own transfer", async () => {
    const k = key();
    const body = draft('shared-key.txt');
    const a = await api(app, '/me/transfers', json(body, { ...bearer(alice), 'idempotency-key': k }));
    const b = await api(app, '/me/transfers', json(body, { ...bearer(bob), 'idempotency-key': k }));
    expect(a.status, a.text).toBe(201);
    expect(b.status, b.text).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.json.id).not.toBe(a.json.id);
    expect(b.json.uploadToken).not.toBe(a.json.uploadToken);
    const stored = await transfersNamed('shared-key.txt');
    expect(stored.map((t) => t.senderId).sort()).toEqual([alice.sub, bob.sub].sort());
  });

  it('guests: one transfer per key and verified address; another guest with the key gets their own', async () => {
    const k = key();
    const body = draft('guest-once.txt', {
      sendAs: 'email',
      senderEmail: GUEST,
      emailTo: [{ email: 'to.someone@example.com' }],
    });
    const first = await api(app, '/transfers', json(body, { 'x-sender-token': guestTok, 'idempotency-key': k }));
    const again = await api(app, '/transfers', json(body, { 'x-sender-token': guestTok, 'idempotency-key': k }));
    expect(first.status, first.text).toBe(201);
    expect(again.status, again.text).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    const other = await api(
      app,
      '/transfers',
      json(
        draft('guest-once.txt', {
          sendAs: 'email',
          senderEmail: OTHER_GUEST,
          emailTo: [{ email: 'to.someone@example.com' }],
        }),
        { 'x-sender-token': otherGuestTok, 'idempotency-key': k },
      ),
    );
    expect(other.status, other.text).toBe(201);
    expect(other.json.id).not.toBe(first.json.id);
    expect((await transfersNamed('guest-once.txt')).map((t) => t.senderEmail).sort()).toEqual(
      [GUEST, OTHER_GUEST].sort(),
    );
    // without the sender token the key is never looked at
    const noToken = await api(app, '/transfers', json(body, { 'idempotency-key': k }));
    expect(noToken.status).toBe(403);
    expect(noToken.json.id).toBeUndefined();
  });

  it('two racing calls with one key make one transfer; the loser answers the same or asks to retry', async () => {
    const k = key();
    const body = draft('racing.txt');
    const answers = await Promise.all(
      [1, 2, 3].map(() => api(app, '/me/transfers', json(body, { ...bearer(alice), 'idempotency-key': k }))),
    );
    const created = answers.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(r.status, r.text).toBe(409);
      expect(r.json.error.code).toBe('idempotency_in_progress');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    expect(new Set(created.map((r) => r.json.id)).size).toBe(1);
    expect(await transfersNamed('racing.txt')).toHaveLength(1);
  });

  it('a malformed key is 400 idempotency_key_invalid; no key at all simply creates', async () => {
    const bad = await api(
      app,
      '/me/transfers',
      json(draft('bad-key.txt'), { ...bearer(alice), 'idempotency-key': 'short' }),
    );
    expect(bad.status, bad.text).toBe(400);
    expect(bad.json.error.code).toBe('idempotency_key_invalid');
    expect(await transfersNamed('bad-key.txt')).toEqual([]);
    const plain1 = await api(app, '/me/transfers', json(draft('no-key.txt'), bearer(alice)));
    const plain2 = await api(app, '/me/transfers', json(draft('no-key.txt'), bearer(alice)));
    expect([plain1.status, plain2.status]).toEqual([201, 201]);
    expect(await transfersNamed('no-key.txt')).toHaveLength(2);
  });
});

describe('Idempotency-Key on file requests', () => {
  async function requestTitles(user: TestUser): Promise<string[]> {
    const res = await api(app, `/requests?userid=${user.sub}`, { headers: bearer(user) });
    expect(res.status, res.text).toBe(200);
    return (res.json as ListRequestsResponse).requests.map((r) => r.title);
  }

  it('one request per key; a refused call gives its key back for the corrected request', async () => {
    const k = key();
    const refused = await api(
      app,
      '/requests',
      json(
        { title: 'Key reuse after refusal', dueDate: Date.now() - 60_000 },
        { ...bearer(alice), 'idempotency-key': k },
      ),
    );
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error.code).toBe('due_date_past');
    const body = { title: 'Key reuse after refusal' };
    const first = await api(app, '/requests', json(body, { ...bearer(alice), 'idempotency-key': k }));
    const again = await api(app, '/requests', json(body, { ...bearer(alice), 'idempotency-key': k }));
    expect(first.status, first.text).toBe(201);
    expect(again.status, again.text).toBe(201);
    expect(again.json).toEqual(first.json);
    expect((await requestTitles(alice)).filter((t) => t === 'Key reuse after refusal')).toHaveLength(1);

    // a visitor's upload start, keyed per verified address
    const uk = key();
    const start = {
      senderName: 'Gus',
      senderEmail: GUEST,
      message: '',
      fileObjects: [{ fileName: 'for-request.txt', size: 3 }],
      lang: 'en',
    };
    const u1 = await api(
      app,
      `/r/${first.json.id}/uploads`,
      json(start, { 'x-sender-token': guestTok, 'idempotency-key': uk }),
    );
    const u2 = await api(
      app,
      `/r/${first.json.id}/uploads`,
      json(start, { 'x-sender-token': guestTok, 'idempotency-key': uk }),
    );
    expect(u1.status, u1.text).toBe(201);
    expect(u2.status, u2.text).toBe(201);
    expect(u2.json.id).toBe(u1.json.id);
    expect(await transfersWithFile('for-request.txt')).toEqual([`TRANSFER#${u1.json.id}`]);
  });

  it('keeps each record under the caller, with a 24 h ttl', async () => {
    const k = key();
    const res = await api(app, '/requests', json({ title: 'Record shape' }, { ...bearer(bob), 'idempotency-key': k }));
    expect(res.status, res.text).toBe(201);
    const out = await dynamo().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': keys.idempotencyKey(`user#${bob.sub}`, k).pk, ':sk': `KEY#${k}` },
      }),
    );
    expect(out.Items).toHaveLength(1);
    const item = out.Items![0]!;
    expect(item).toMatchObject({ entity: 'IdempotencyKey', state: 'done', status: 201 });
    const ttlHours = (Number(item.ttl) * 1000 - Date.now()) / 3_600_000;
    expect(ttlHours).toBeGreaterThan(23.9);
    expect(ttlHours).toBeLessThanOrEqual(24.01);
  });
});
