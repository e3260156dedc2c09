/**
 * A user's contacts (spec §3 Contact: email, name, company; docs/data-model.md patterns 30,
 * 30a-30f): one item per lower-cased address under the user's partition,
 * `pk=USER#<sub>`, `sk=CONTACT#<lower-cased email>`, keeping the address as first written in
 * `email` for display. The count of a user's contacts is kept on `USER#<sub>/STATS#CONTACTS`
 * and changes only with conditional writes, so MAX_CONTACTS is never passed: new contacts
 * first reserve their slots on the counter, then are written with `attribute_not_exists(pk)`,
 * and unused slots are given back (a crash in between can leave the count a little high,
 * never low).
 */
import { MAX_CONTACTS, type ContactRow, type ContactSource } from '../domain/contacts-api';
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, queryAll, table, transactOr } from './base';
import { keys } from './keys';

export type ContactRecord = ContactRow;

export interface ContactFields {
  readonly name?: string;
  readonly company?: string;
}

function fromItem(i: Record<string, unknown>): ContactRecord {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const name = str(i.name);
  const company = str(i.company);
  const lastUsedAt = typeof i.lastUsedAt === 'number' ? i.lastUsedAt : null;
  const source = i.source === 'manual' || i.source === 'import' ? i.source : 'send';
  return {
    email: String(i.email),
    ...(name ? { name } : {}),
    ...(company ? { company } : {}),
    source,
    createdAt: typeof i.createdAt === 'number' ? i.createdAt : (lastUsedAt ?? 0),
    lastUsedAt,
  };
}

/** Pattern 30: every contact of a user (bounded by MAX_CONTACTS), in key order. */
export async function listContactRecords(userId: string): Promise<ContactRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.userProfile(userId).pk, ':p': keys.contactPrefix },
  });
  return items.filter((i) => typeof i.email === 'string' && i.email !== '').map(fromItem);
}

export async function getContact(userId: string, email: string): Promise<ContactRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.contact(userId, email), ConsistentRead: true });
  return out.Item && typeof out.Item.email === 'string' ? fromItem(out.Item) : undefined;
}

/** Pattern 30a: how many contacts the counter says the user has. */
export async function contactCount(userId: string): Promise<number> {
  const out = await ddb().get({ TableName: table(), Key: keys.contactStats(userId), ConsistentRead: true });
  return typeof out.Item?.count === 'number' ? Math.max(0, out.Item.count) : 0;
}

/**
 * Pattern 30a: reserves up to `wanted` new contacts on the counter (condition: the count stays
 * at most MAX_CONTACTS); returns how many it got, 0 when the account is full.
 */
export async function reserveContactSlots(userId: string, wanted: number): Promise<number> {
  for (let attempt = 0; attempt < 8 && wanted > 0; attempt += 1) {
    const grant = Math.min(wanted, MAX_CONTACTS - (await contactCount(userId)));
    if (grant <= 0) return 0;
    const granted = await conditionalWrite(() =>
      ddb().update({
        TableName: table(),
        Key: keys.contactStats(userId),
        UpdateExpression: 'SET entity = :e ADD #c :g',
        ConditionExpression: 'attribute_not_exists(#c) OR #c <= :before',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':e': 'ContactStats', ':g': grant, ':before': MAX_CONTACTS - grant },
      }),
    );
    if (granted) return grant;
    // another writer moved the count: read it again
  }
  return 0;
}

/** Gives back reserved slots that no contact used. */
export async function releaseContactSlots(userId: string, unused: number): Promise<void> {
  if (unused <= 0) return;
  await ddb().update({
    TableName: table(),
    Key: keys.contactStats(userId),
    UpdateExpression: 'ADD #c :m',
    ConditionExpression: 'attribute_exists(#c)',
    ExpressionAttributeNames: { '#c': 'count' },
    ExpressionAttributeValues: { ':m': -unused },
  });
}

export interface NewContact extends ContactFields {
  readonly email: string;
}

/**
 * Pattern 30b: writes a new contact into a slot already reserved; false when the address
 * (in any case) is a contact already, and then the slot is still the caller's to give back.
 */
export async function putNewContact(
  userId: string,
  c: NewContact,
  source: ContactSource,
  now: number,
  lastUsedAt?: number,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: {
        ...keys.contact(userId, c.email),
        entity: 'Contact',
        email: c.email.trim(),
        ...(c.name ? { name: c.name } : {}),
        ...(c.company ? { company: c.company } : {}),
        source,
        createdAt: now,
        ...(lastUsedAt !== undefined ? { lastUsedAt } : {}),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Pattern 30c: a send to an address that is a contact already: `lastUsedAt` moves, and the
 * send's name and company fill only fields the contact does not have (a name the user typed
 * or imported is never overwritten, and the address keeps the case it was first written in).
 * False when there is no such contact.
 */
export async function touchContactFromSend(userId: string, c: NewContact, now: number): Promise<boolean> {
  const sets = ['lastUsedAt = :now'];
  const values: Record<string, unknown> = { ':now': now };
  const names: Record<string, string> = {};
  if (c.name) {
    sets.push('#n = if_not_exists(#n, :n)');
    names['#n'] = 'name';
    values[':n'] = c.name;
  }
  if (c.company) {
    sets.push('company = if_not_exists(company, :c)');
    values[':c'] = c.company;
  }
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.contact(userId, c.email),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Pattern 30d: the user's own edit of name and company ('' removes one), and of the address's
 * case (`displayEmail`, same key). Undefined when there is no such contact.
 */
export async function editContactFields(
  userId: string,
  email: string,
  edit: ContactFields & { displayEmail?: string },
  now: number,
): Promise<ContactRecord | undefined> {
  const sets = ['editedAt = :now'];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now };
  if (edit.name !== undefined) {
    names['#n'] = 'name';
    if (edit.name === '') removes.push('#n');
    else {
      sets.push('#n = :n');
      values[':n'] = edit.name;
    }
  }
  if (edit.company !== undefined) {
    if (edit.company === '') removes.push('company');
    else {
      sets.push('company = :c');
      values[':c'] = edit.company;
    }
  }
  if (edit.displayEmail !== undefined) {
    sets.push('email = :email');
    values[':email'] = edit.displayEmail;
  }
  const out = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: keys.contact(userId, email),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return out ? fromItem(out) : undefined;
}

/**
 * Pattern 30e: a contact moves to another address (another key): the old item deleted and the
 * new one put in one transaction (the count does not change). `missing`: no contact at `from`;
 * `exists`: `to` is a contact already.
 */
export async function moveContact(
  userId: string,
  from: string,
  to: NewContact & { source: ContactSource; createdAt: number; lastUsedAt: number | null },
  now: number,
): Promise<'moved' | 'missing' | 'exists'> {
  const refused = await transactOr(
    [
      { Delete: { TableName: table(), Key: keys.contact(userId, from), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Put: {
          TableName: table(),
          Item: {
            ...keys.contact(userId, to.email),
            entity: 'Contact',
            email: to.email.trim(),
            ...(to.name ? { name: to.name } : {}),
            ...(to.company ? { company: to.company } : {}),
            source: to.source,
            createdAt: to.createdAt,
            ...(to.lastUsedAt !== null ? { lastUsedAt: to.lastUsedAt } : {}),
            editedAt: now,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    ['missing', 'exists'] as const,
  );
  return refused ?? 'moved';
}

/** Pattern 30f: removes a contact and its slot on the counter together; false when there was none. */
export async function deleteContact(userId: string, email: string): Promise<boolean> {
  const refused = await transactOr(
    [
      { Delete: { TableName: table(), Key: keys.contact(userId, email), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Update: {
          TableName: table(),
          Key: keys.contactStats(userId),
          UpdateExpression: 'ADD #c :m',
          ConditionExpression: 'attribute_exists(#c) AND #c > :zero',
          ExpressionAttributeNames: { '#c': 'count' },
          ExpressionAttributeValues: { ':m': -1, ':zero': 0 },
        },
      },
    ],
    ['gone', 'uncounted'] as const,
  );
  if (refused === null) return true;
  if (refused === 'gone') return false;
  // A contact without a counted slot (written before the counter existed): remove it alone.
  return conditionalWrite(() =>
    ddb().delete({ TableName: table(), Key: keys.contact(userId, email), ConditionExpression: 'attribute_exists(pk)' }),
  );
}
