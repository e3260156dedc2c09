/**
 * The signed-in user's contacts (spec §2 /dash/contacts, §3 Contact, §5, §6, §7
 * POST /quicksend2): the contacts screen's list, add, edit, remove, CSV import and export, the
 * recipient suggestions, and the recipients of sends remembered as contacts.
 *
 * One contact per address, case-insensitively (the table's key is the lower-cased address);
 * the address keeps the case it was first written in. A send never overwrites what the user
 * typed or imported: it adds new recipients and fills only a missing name or company
 * (docs/data-model.md, "Contacts").
 */
import {
  CSV_IMPORT_MAX_BYTES,
  CSV_IMPORT_MAX_ROWS,
  MAX_CONTACTS,
  cleanContactText,
  contactEmailSchema,
  contactKeyOf,
  type ContactImportResult,
  type ContactListResponse,
  type ContactRow,
} from '../domain/contacts-api';
import { contactsCsv, readContactsCsv } from '../domain/contacts-csv';
import type { ContactView } from '../domain/auth-api';
import {
  deleteContact,
  editContactFields,
  getContact,
  listContactRecords,
  moveContact,
  putNewContact,
  releaseContactSlots,
  reserveContactSlots,
  touchContactFromSend,
  type NewContact,
} from '../data/contacts';
import { mapLimited } from '../lib/concurrency';
import { badRequest, conflict, notFound, payloadTooLarge } from '../lib/errors';
import { errorFields, log } from '../lib/log';

/** Writes of one import in flight at once. */
const IMPORT_CONCURRENCY = 8;

const sortKey = (c: Pick<ContactRow, 'email' | 'name'>) => (c.name || c.email).toLocaleLowerCase('en');
const byName = (a: ContactRow, b: ContactRow) =>
  sortKey(a).localeCompare(sortKey(b), 'en') || contactKeyOf(a.email).localeCompare(contactKeyOf(b.email));

function matches(c: ContactRow, q: string): boolean {
  const needle = q.toLocaleLowerCase('en');
  return [c.email, c.name ?? '', c.company ?? ''].some((f) => f.toLocaleLowerCase('en').includes(needle));
}

/** GET /contacts: every contact (at most MAX_CONTACTS) by name, or those matching `q`. */
export async function listContacts(userId: string, q?: string): Promise<ContactListResponse> {
  const all = (await listContactRecords(userId)).sort(byName);
  return { contacts: q ? all.filter((c) => matches(c, q)) : all, total: all.length, max: MAX_CONTACTS };
}

const contactExists = () => conflict('contact_exists', 'This email address is already one of your contacts.');
const contactNotFound = () => notFound('contact_not_found', 'This contact does not exist.');
const contactsFull = () =>
  conflict('contacts_full', `You can keep up to ${MAX_CONTACTS} contacts. Remove some to add more.`);

/** POST /contacts: a new contact typed on the contacts screen. */
export async function addContact(userId: string, c: NewContact, now = Date.now()): Promise<ContactRow> {
  if (await getContact(userId, c.email)) throw contactExists();
  if ((await reserveContactSlots(userId, 1)) < 1) throw contactsFull();
  if (!(await putNewContact(userId, c, 'manual', now))) {
    await releaseContactSlots(userId, 1);
    throw contactExists();
  }
  return {
    email: c.email,
    ...(c.name ? { name: c.name } : {}),
    ...(c.company ? { company: c.company } : {}),
    source: 'manual',
    createdAt: now,
    lastUsedAt: null,
  };
}

/**
 * PATCH /contacts: name and company ('' removes one); `newEmail` changes the address: only its
 * case (same contact), or another address (the contact moves, keeping its history).
 */
export async function editContact(
  userId: string,
  edit: { email: string; name?: string; company?: string; newEmail?: string },
  now = Date.now(),
): Promise<ContactRow> {
  const { email, newEmail } = edit;
  const fields = {
    ...(edit.name !== undefined ? { name: edit.name } : {}),
    ...(edit.company !== undefined ? { company: edit.company } : {}),
  };
  if (newEmail !== undefined && contactKeyOf(newEmail) !== contactKeyOf(email)) {
    const current = await getContact(userId, email);
    if (!current) throw contactNotFound();
    const name = fields.name ?? current.name;
    const company = fields.company ?? current.company;
    const contact = {
      email: newEmail,
      ...(name ? { name } : {}),
      ...(company ? { company } : {}),
      source: current.source,
      createdAt: current.createdAt,
      lastUsedAt: current.lastUsedAt,
    };
    const moved = await moveContact(userId, email, contact, now);
    if (moved === 'missing') throw contactNotFound();
    if (moved === 'exists') throw contactExists();
    return contact;
  }
  const updated = await editContactFields(
    userId,
    email,
    { ...fields, ...(newEmail !== undefined ? { displayEmail: newEmail } : {}) },
    now,
  );
  if (!updated) throw contactNotFound();
  return updated;
}

/** POST /contacts/remove */
export async function removeContact(userId: string, email: string): Promise<void> {
  if (!(await deleteContact(userId, email))) throw contactNotFound();
}

/** Reserves slots for `fresh` new contacts, writes them, gives back what was not used; returns the written ones. */
async function addNew(
  userId: string,
  fresh: readonly NewContact[],
  source: 'send' | 'import',
  now: number,
): Promise<{ written: NewContact[]; taken: NewContact[]; overLimit: number }> {
  if (fresh.length === 0) return { written: [], taken: [], overLimit: 0 };
  const granted = await reserveContactSlots(userId, fresh.length);
  const inSlots = fresh.slice(0, granted);
  let used = 0;
  const written: NewContact[] = [];
  const taken: NewContact[] = [];
  try {
    await mapLimited(inSlots, IMPORT_CONCURRENCY, async (c) => {
      if (await putNewContact(userId, c, source, now, source === 'send' ? now : undefined)) {
        used += 1;
        written.push(c);
      } else taken.push(c);
    });
  } finally {
    await releaseContactSlots(userId, granted - used);
  }
  return { written, taken, overLimit: fresh.length - granted };
}

/** One per address, the first one of each (case-insensitively), without blanks. */
function uniqueByKey<T extends { email: string }>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    const key = contactKeyOf(c.email);
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A signed-in send's recipients become contacts (spec §6): new addresses are added while the
 * account has room, known ones get `lastUsedAt` and a missing name or company filled. A
 * failure here never fails the send that was already made; it is logged.
 */
export async function rememberRecipients(
  userId: string,
  recipients: readonly NewContact[],
  now = Date.now(),
): Promise<void> {
  try {
    const fresh: NewContact[] = [];
    for (const r of uniqueByKey(recipients)) if (!(await touchContactFromSend(userId, r, now))) fresh.push(r);
    const { taken } = await addNew(userId, fresh, 'send', now);
    // written meanwhile by another request: this send still counts as its last use
    for (const r of taken) await touchContactFromSend(userId, r, now);
  } catch (err) {
    log.warn('recipients not saved as contacts', { userId, ...errorFields(err) });
  }
}

/** POST /quicksend2: suggestions for the recipient box, the most recently sent to first. */
export async function contactSuggestions(userId: string): Promise<ContactView[]> {
  const all = await listContactRecords(userId);
  all.sort((a, b) => (b.lastUsedAt ?? 0) - (a.lastUsedAt ?? 0) || byName(a, b));
  return all.map(({ email, name, company }) => ({ email, ...(name ? { name } : {}), ...(company ? { company } : {}) }));
}

/** GET /contacts/export: every contact as CSV (formula-safe cells). */
export async function exportContacts(userId: string): Promise<string> {
  return contactsCsv((await listContactRecords(userId)).sort(byName));
}

const CSV_REFUSALS = {
  empty: () => badRequest('csv_empty', 'The file has no rows.'),
  no_email_column: () =>
    badRequest(
      'csv_no_email_column',
      'No email column was found: name it "email" in the first row, or start the rows with addresses.',
    ),
  unterminated: () => badRequest('csv_unterminated', 'The file has a quoted field that is never closed.'),
} as const;

/**
 * POST /contacts/import: each row of the file with an email becomes a contact, or updates the
 * name and company of the one with that address (a blank cell changes nothing). Rows without
 * an email are skipped (spec §5), invalid addresses counted, repeated addresses taken once.
 */
export async function importContacts(userId: string, csv: string, now = Date.now()): Promise<ContactImportResult> {
  if (Buffer.byteLength(csv, 'utf8') > CSV_IMPORT_MAX_BYTES)
    throw payloadTooLarge('csv_too_large', `A contacts file can be at most ${CSV_IMPORT_MAX_BYTES / 1024} KB.`);
  const read = readContactsCsv(csv, CSV_IMPORT_MAX_ROWS);
  if (!read.ok) throw CSV_REFUSALS[read.reason]();
  if (read.truncated)
    throw badRequest('csv_too_many_rows', `A contacts file can have at most ${CSV_IMPORT_MAX_ROWS} rows.`);

  const result = {
    rows: read.entries.length,
    added: 0,
    updated: 0,
    unchanged: 0,
    skippedWithoutEmail: 0,
    invalid: 0,
    duplicates: 0,
    overLimit: 0,
  };
  const existing = new Map((await listContactRecords(userId)).map((c) => [contactKeyOf(c.email), c]));
  const seen = new Set<string>();
  const fresh: NewContact[] = [];
  const edits: { email: string; name?: string; company?: string }[] = [];
  for (const entry of read.entries) {
    if (entry.email === '') {
      result.skippedWithoutEmail += 1;
      continue;
    }
    const parsed = contactEmailSchema.safeParse(entry.email);
    if (!parsed.success) {
      result.invalid += 1;
      continue;
    }
    const key = contactKeyOf(parsed.data);
    if (seen.has(key)) {
      result.duplicates += 1;
      continue;
    }
    seen.add(key);
    const name = cleanContactText(entry.name);
    const company = cleanContactText(entry.company);
    const known = existing.get(key);
    if (!known) {
      fresh.push({ email: parsed.data, ...(name ? { name } : {}), ...(company ? { company } : {}) });
      continue;
    }
    const edit = {
      email: known.email,
      ...(name && name !== known.name ? { name } : {}),
      ...(company && company !== known.company ? { company } : {}),
    };
    if ('name' in edit || 'company' in edit) edits.push(edit);
    else result.unchanged += 1;
  }

  const { written, taken, overLimit } = await addNew(userId, fresh, 'import', now);
  result.added = written.length;
  result.overLimit = overLimit;
  // Added by someone else between the read and the write: the file's values go on it as an edit.
  edits.push(
    ...taken.map((c) => ({
      email: c.email,
      ...(c.name ? { name: c.name } : {}),
      ...(c.company ? { company: c.company } : {}),
    })),
  );
  const done = await mapLimited(edits, IMPORT_CONCURRENCY, (e) => editContactFields(userId, e.email, e, now));
  for (const d of done) {
    if (d) result.updated += 1;
    else result.unchanged += 1;
  }
  return result;
}
