/**
 * Contacts end to end (spec §2 /dash/contacts, §3 Contact, §5 "Contacts de-duplicated
 * case-insensitively by email; ignored without email", §6 suggestions, §7 POST /quicksend2),
 * through the local gateway against DynamoDB Local: add, edit, remove; one contact per address
 * whatever its case, also when a send names it in another case; recipients of sends become
 * contacts without overwriting what the user typed; CSV import (rows without an email ignored)
 * and export (formula-safe) round trip; refusals are 4xx with stable codes; the cap holds; one
 * user never sees or changes another's contacts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import {
  CSV_IMPORT_MAX_BYTES,
  MAX_CONTACTS,
  type ContactImportResult,
  type ContactListResponse,
  type ContactRow,
} from '../../functions/domain/contacts-api';
import type { ContactView } from '../../functions/domain/auth-api';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, json, randomData, sendFiles, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const table = () => app.stack.env.TABLE_NAME!;

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  api(app, path, body === undefined ? { method, headers: bearer(user) } : json(body, bearer(user), method));

async function listOf(user: TestUser, q?: string): Promise<ContactListResponse> {
  const res = await call(user, 'GET', `/contacts${q !== undefined ? `?q=${encodeURIComponent(q)}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.json as ContactListResponse;
}

const emailsOf = (list: { contacts: readonly { email: string }[] }) => list.contacts.map((c) => c.email);
const find = (list: ContactListResponse, email: string): ContactRow | undefined =>
  list.contacts.find((c) => c.email.toLowerCase() === email.toLowerCase());

async function suggestionsOf(user: TestUser): Promise<ContactView[]> {
  const res = await call(user, 'POST', '/quicksend2', {});
  expect(res.status, res.text).toBe(200);
  return (res.json as { contacts: ContactView[] }).contacts;
}

async function importCsv(user: TestUser, csv: string): Promise<ContactImportResult> {
  const res = await call(user, 'POST', '/contacts/import', { csv });
  expect(res.status, res.text).toBe(200);
  return res.json as ContactImportResult;
}

function sendByEmail(user: TestUser, emailTo: { email: string; name?: string; company?: string }[]) {
  return sendFiles(app, user, new Map([['brief.pdf', randomData(64)]]), { sendAs: 'email', emailTo });
}

beforeAll(async () => {
  app = await startTestApp();
  alice = await createUser(app, 'alice.contacts@example.com');
  bob = await createUser(app, 'bob.contacts@example.com');
  carol = await createUser(app, 'carol.contacts@example.com');
});

afterAll(async () => {
  await app?.stop();
});

describe('contacts de-duplication and suggestions', () => {
  it('starts empty, then lists a contact added by hand with the address as typed', async () => {
    expect(await listOf(alice)).toEqual({ contacts: [], total: 0, max: MAX_CONTACTS });
    const res = await call(alice, 'POST', '/contacts', {
      email: ' Maria.Lopez@Acme.com ',
      name: 'Maria Lopez',
      company: 'Acme',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.contact).toMatchObject({
      email: 'Maria.Lopez@Acme.com',
      name: 'Maria Lopez',
      company: 'Acme',
      source: 'manual',
      lastUsedAt: null,
    });
    expect((await listOf(alice)).contacts).toEqual([
      expect.objectContaining({ email: 'Maria.Lopez@Acme.com', name: 'Maria Lopez', company: 'Acme' }),
    ]);
  });

  it('refuses the same address in another case: one contact per address', async () => {
    expect((await call(alice, 'POST', '/contacts', { email: 'bob@x.com', name: 'Bob' })).status).toBe(201);
    const again = await call(alice, 'POST', '/contacts', { email: 'BOB@X.COM', name: 'Other Bob' });
    expect(again.status, again.text).toBe(409);
    expect(again.json.error.code).toBe('contact_exists');
    const list = await listOf(alice);
    expect(list.total).toBe(2);
    expect(find(list, 'bob@x.com')).toMatchObject({ email: 'bob@x.com', name: 'Bob' });
  });

  it('a send to Bob@X.com after bob@x.com exists keeps one contact, marks its use, and keeps the name the user gave', async () => {
    await sendByEmail(alice, [
      { email: 'Bob@X.com', name: 'Robert From The Send' },
      { email: 'new.recipient@example.org', name: 'Nina', company: 'Org' },
    ]);
    const list = await listOf(alice);
    expect(list.contacts.filter((c) => c.email.toLowerCase() === 'bob@x.com')).toHaveLength(1);
    const bobContact = find(list, 'bob@x.com')!;
    expect(bobContact).toMatchObject({ email: 'bob@x.com', name: 'Bob', source: 'manual' });
    expect(bobContact.lastUsedAt).toEqual(expect.any(Number));
    // recipients of past sends appear, with the send's name and company
    expect(find(list, 'new.recipient@example.org')).toMatchObject({
      name: 'Nina',
      company: 'Org',
      source: 'send',
      lastUsedAt: expect.any(Number),
    });
    expect(list.total).toBe(3);
  });

  it('a send fills a name or company the contact lacks, never overwrites one', async () => {
    expect((await call(alice, 'POST', '/contacts', { email: 'noname@example.com' })).status).toBe(201);
    await sendByEmail(alice, [
      { email: 'NoName@Example.com', name: 'Named By Send', company: 'SendCo' },
      { email: 'maria.lopez@acme.com', name: 'Overwriter', company: 'Nope' },
    ]);
    const list = await listOf(alice);
    expect(find(list, 'noname@example.com')).toMatchObject({
      email: 'noname@example.com',
      name: 'Named By Send',
      company: 'SendCo',
    });
    expect(find(list, 'maria.lopez@acme.com')).toMatchObject({
      email: 'Maria.Lopez@Acme.com',
      name: 'Maria Lopez',
      company: 'Acme',
    });
  });

  it('POST /quicksend2 offers the contacts, the most recently sent to first, each address once', async () => {
    const suggestions = await suggestionsOf(alice);
    const lower = suggestions.map((c) => c.email.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
    // the two of the last send first, then those of the send before; the same send's by name
    expect(suggestions.map((c) => c.email.toLowerCase())).toEqual([
      'maria.lopez@acme.com',
      'noname@example.com',
      'bob@x.com',
      'new.recipient@example.org',
    ]);
    expect(suggestions.find((c) => c.email === 'Maria.Lopez@Acme.com')).toEqual({
      email: 'Maria.Lopez@Acme.com',
      name: 'Maria Lopez',
      company: 'Acme',
    });
  });

  it('searches by address, name or company, case-insensitively, and totals all contacts', async () => {
    expect(emailsOf(await listOf(alice, 'ACME'))).toEqual(['Maria.Lopez@Acme.com']);
    expect(emailsOf(await listOf(alice, 'nina'))).toEqual(['new.recipient@example.org']);
    expect(emailsOf(await listOf(alice, 'sendco'))).toEqual(['noname@example.com']);
    const none = await listOf(alice, 'zzz-nothing');
    expect(none).toMatchObject({ contacts: [], total: 4 });
  });

  it('edits name and company, clears one with an empty string, and changes the address', async () => {
    const edited = await call(alice, 'PATCH', '/contacts', {
      email: 'BOB@x.com',
      name: 'Bob Builder',
      company: 'Builders Ltd',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.contact).toMatchObject({ email: 'bob@x.com', name: 'Bob Builder', company: 'Builders Ltd' });
    const cleared = await call(alice, 'PATCH', '/contacts', { email: 'bob@x.com', company: '' });
    expect(cleared.json.contact).toEqual(expect.objectContaining({ name: 'Bob Builder' }));
    expect(cleared.json.contact.company).toBeUndefined();
    // only the case: the same contact, shown as now written
    const recased = await call(alice, 'PATCH', '/contacts', { email: 'bob@x.com', newEmail: 'Bob@X.com' });
    expect(recased.json.contact).toMatchObject({ email: 'Bob@X.com', name: 'Bob Builder' });
    // another address: the contact moves with its name and history
    const before = find(await listOf(alice), 'bob@x.com')!;
    const moved = await call(alice, 'PATCH', '/contacts', { email: 'bob@x.com', newEmail: 'bob@builders.io' });
    expect(moved.status, moved.text).toBe(200);
    const list = await listOf(alice);
    expect(find(list, 'bob@x.com')).toBeUndefined();
    expect(find(list, 'bob@builders.io')).toMatchObject({
      name: 'Bob Builder',
      createdAt: before.createdAt,
      lastUsedAt: before.lastUsedAt,
    });
    expect(list.total).toBe(4);
    // onto an address that is a contact already: refused, nothing changes
    const clash = await call(alice, 'PATCH', '/contacts', { email: 'bob@builders.io', newEmail: 'NOname@example.com' });
    expect(clash.status).toBe(409);
    expect(clash.json.error.code).toBe('contact_exists');
    expect(find(await listOf(alice), 'bob@builders.io')).toBeDefined();
  });

  it('removes a contact by its address in any case, once', async () => {
    const removed = await call(alice, 'POST', '/contacts/remove', { email: 'BOB@Builders.io' });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toEqual({ removed: true });
    const again = await call(alice, 'POST', '/contacts/remove', { email: 'bob@builders.io' });
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe('contact_not_found');
    expect((await listOf(alice)).total).toBe(3);
    // a removed contact can be added again
    expect((await call(alice, 'POST', '/contacts', { email: 'bob@builders.io' })).status).toBe(201);
    expect((await call(alice, 'POST', '/contacts/remove', { email: 'bob@builders.io' })).status).toBe(200);
  });
});

describe('CSV import and export', () => {
  it('imports rows by their header in any order; rows without an email are ignored, invalid and repeated ones counted', async () => {
    const csv = [
      'Company,E-mail Address,Full Name',
      'Engines,Ada@Engines.io,Ada Lovelace',
      'Nowhere,,No Address',
      ',,',
      '',
      'Typo Inc,not-an-address,Typo',
      'Engines,ADA@engines.io,Ada Again',
      '"Lopez, Maria & Co",maria.lopez@acme.com,"Maria ""M"" Lopez"',
      'Acme,noname@example.com,',
      '"=HYPERLINK(""http://evil"")",evil@example.com,@SUM(1)',
    ].join('\r\n');
    expect(await importCsv(alice, csv)).toEqual({
      rows: 9,
      added: 2,
      updated: 2,
      unchanged: 0,
      skippedWithoutEmail: 3,
      invalid: 1,
      duplicates: 1,
      overLimit: 0,
    });
    const list = await listOf(alice);
    expect(find(list, 'ada@engines.io')).toMatchObject({
      email: 'Ada@Engines.io',
      name: 'Ada Lovelace',
      company: 'Engines',
      source: 'import',
    });
    // an existing contact takes the file's name and company; the address keeps its case
    expect(find(list, 'maria.lopez@acme.com')).toMatchObject({
      email: 'Maria.Lopez@Acme.com',
      name: 'Maria "M" Lopez',
      company: 'Lopez, Maria & Co',
    });
    // a blank cell changes nothing: noname keeps 'Named By Send'; 'Acme' replaces SendCo
    expect(find(list, 'noname@example.com')).toMatchObject({ name: 'Named By Send', company: 'Acme' });
    expect(find(list, 'evil@example.com')).toMatchObject({ name: '@SUM(1)', company: '=HYPERLINK("http://evil")' });
    expect(list.total).toBe(5);
  });

  it('imports a file without a header when its rows start with addresses', async () => {
    expect(await importCsv(carol, 'first@example.com,First Person,FirstCo\nsecond@example.com\n')).toMatchObject({
      rows: 2,
      added: 2,
    });
    expect(emailsOf(await listOf(carol)).sort()).toEqual(['first@example.com', 'second@example.com']);
  });

  it('exports text/csv as an attachment, formula-safe, and the export imports back to the same contacts', async () => {
    const res = await api(app, '/contacts/export', { headers: bearer(alice) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="contacts.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const lines = res.text
      .replace(/^\uFEFF/u, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('email,name,company');
    expect(lines).toContain(`evil@example.com,'@SUM(1),"'=HYPERLINK(""http://evil"")"`);
    expect(lines).toHaveLength(1 + 5);

    // into an empty account: the same contacts
    const fresh = await createUser(app, 'dora.roundtrip@example.com');
    expect(await importCsv(fresh, res.text)).toMatchObject({ rows: 5, added: 5, invalid: 0, skippedWithoutEmail: 0 });
    const strip = (l: ContactListResponse) => l.contacts.map(({ email, name, company }) => ({ email, name, company }));
    expect(strip(await listOf(fresh))).toEqual(strip(await listOf(alice)));
    // and into the same account again: nothing changes
    expect(await importCsv(alice, res.text)).toMatchObject({ added: 0, updated: 0, unchanged: 5 });
  });

  it('refuses files it cannot read with 4xx and stable codes', async () => {
    const refused = async (body: unknown, status: number, code: string) => {
      const res = await call(alice, 'POST', '/contacts/import', body);
      expect(res.status, res.text).toBe(status);
      expect(res.json.error.code, res.text).toBe(code);
    };
    await refused({ csv: '' }, 400, 'csv_empty');
    await refused({ csv: '\r\n\r\n' }, 400, 'csv_empty');
    await refused({ csv: 'name,company\nAda,Engines\n' }, 400, 'csv_no_email_column');
    await refused({ csv: 'email\n"open@example.com\n' }, 400, 'csv_unterminated');
    await refused({ csv: `email\n${'r@example.com\n'.repeat(MAX_CONTACTS + 1)}` }, 400, 'csv_too_many_rows');
    // over the cap in UTF-8 bytes while under it in characters
    await refused({ csv: `email\n${'é'.repeat(CSV_IMPORT_MAX_BYTES / 2 + 10)}` }, 413, 'csv_too_large');
    await refused({ csv: 42 }, 400, 'invalid_request');
    await refused({}, 400, 'invalid_request');
    const notJson = await api(app, '/contacts/import', {
      method: 'POST',
      headers: { ...bearer(alice), 'content-type': 'application/json' },
      body: '{"csv": "email',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.code).toBe('invalid_json');
  });
});

describe('bad input and other users', () => {
  it('answers malformed adds and edits with 400 and the field, never 5xx', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/contacts', { email: 'not-an-address' }, 'invalid_email'],
      ['POST', '/contacts', { email: '' }, 'email_required'],
      ['POST', '/contacts', { name: 'No Address' }, 'email_required'],
      ['POST', '/contacts', { email: 42 }, 'email_required'],
      ['POST', '/contacts', { email: 'a@example.com', name: 'x'.repeat(500) }, 'too_big'],
      ['POST', '/contacts', { email: `${'a'.repeat(260)}@example.com` }, 'invalid_email'],
      ['PATCH', '/contacts', { email: 'ada@engines.io', newEmail: 'nope' }, 'invalid_email'],
      ['PATCH', '/contacts', { email: 'ada@engines.io', company: ['x'] }, 'invalid_type'],
      ['POST', '/contacts/remove', { email: null }, 'email_required'],
    ];
    for (const [method, path, body, code] of cases) {
      const res = await call(alice, method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${res.text}`).toBe(400);
      expect(res.json.error.details.issues[0].code, res.text).toBe(code);
    }
    const longQ = await call(alice, 'GET', `/contacts?q=${'q'.repeat(101)}`);
    expect(longQ.status).toBe(400);
    const unknown = await call(alice, 'PATCH', '/contacts', { email: 'nobody@example.com', name: 'X' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('contact_not_found');
    const unknownMove = await call(alice, 'PATCH', '/contacts', {
      email: 'nobody@example.com',
      newEmail: 'somebody@example.com',
    });
    expect(unknownMove.status).toBe(404);
  });

  it('keeps names with markup and control characters as plain text', async () => {
    const res = await call(alice, 'POST', '/contacts', {
      email: 'xss@example.com',
      name: '<img src=x onerror=alert(1)>\n\tTab',
      company: '"; DROP TABLE--',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.contact).toMatchObject({ name: '<img src=x onerror=alert(1)> Tab', company: '"; DROP TABLE--' });
    expect((await call(alice, 'POST', '/contacts/remove', { email: 'xss@example.com' })).status).toBe(200);
  });

  it("one user never sees, changes or removes another user's contacts", async () => {
    const aliceBefore = await listOf(alice);
    expect((await listOf(bob)).total).toBe(0);
    expect(await suggestionsOf(bob)).toEqual([]);
    const exportB = await api(app, '/contacts/export', { headers: bearer(bob) });
    expect(exportB.text.replace(/^\uFEFF/u, '').trimEnd()).toBe('email,name,company');
    // naming Alice's contact changes nothing of hers
    const edit = await call(bob, 'PATCH', '/contacts', { email: 'maria.lopez@acme.com', name: 'Hijacked' });
    expect(edit.status).toBe(404);
    const remove = await call(bob, 'POST', '/contacts/remove', { email: 'maria.lopez@acme.com' });
    expect(remove.status).toBe(404);
    // adding the same address makes Bob's own contact, not a view of hers
    const add = await call(bob, 'POST', '/contacts', { email: 'maria.lopez@acme.com' });
    expect(add.status).toBe(201);
    expect(add.json.contact.name).toBeUndefined();
    expect(await listOf(alice)).toEqual(aliceBefore);
    expect((await listOf(bob)).contacts).toEqual([expect.objectContaining({ email: 'maria.lopez@acme.com' })]);
    expect((await api(app, '/contacts', {})).status).toBe(401);
  });
});

describe('the contacts cap', () => {
  it("refuses a new contact at MAX_CONTACTS, counts an import's extra rows, and still lets sends through", async () => {
    const user = await createUser(app, 'full.account@example.com');
    expect((await call(user, 'POST', '/contacts', { email: 'one@example.com' })).status).toBe(201);
    // the counter as if the account held MAX_CONTACTS - 2 more
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...keys.contactStats(user.sub), entity: 'ContactStats', count: MAX_CONTACTS - 1 },
      }),
    );
    expect(
      await importCsv(
        user,
        'email\nlast.slot@example.com\nover.one@example.com\nover.two@example.com\none@example.com\n',
      ),
    ).toMatchObject({ added: 1, overLimit: 2, unchanged: 1 });
    const full = await call(user, 'POST', '/contacts', { email: 'another@example.com' });
    expect(full.status, full.text).toBe(409);
    expect(full.json.error.code).toBe('contacts_full');
    await sendByEmail(user, [{ email: 'sent.while.full@example.com' }, { email: 'ONE@example.com' }]);
    const list = await listOf(user);
    expect(emailsOf(list).sort()).toEqual(['last.slot@example.com', 'one@example.com']);
    expect(find(list, 'one@example.com')!.lastUsedAt).toEqual(expect.any(Number));
    // removing one frees its slot
    expect((await call(user, 'POST', '/contacts/remove', { email: 'last.slot@example.com' })).status).toBe(200);
    expect((await call(user, 'POST', '/contacts', { email: 'another@example.com' })).status).toBe(201);
  });
});
