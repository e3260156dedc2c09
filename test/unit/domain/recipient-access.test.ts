import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  accessListIsEmpty,
  accessStateOf,
  initialAccessEntries,
  isAtDomain,
  type AccessEntry,
} from '../../../functions/domain/recipient-access';
import { sendBodySchema, verifiedDomainSchema } from '../../../functions/domain/validation';

const NOW = 1_800_000_000_000;
const entry = (extra: Partial<AccessEntry> = {}): AccessEntry => ({
  email: 'ana@example.com',
  recipientId: 'Abcd1234',
  addedAt: NOW - 1000,
  ...extra,
});

describe('accessStateOf', () => {
  it('tells not opened, opened and downloaded apart', () => {
    expect(accessStateOf(entry(), 0, NOW)).toBe('not_opened');
    expect(accessStateOf(entry({ openedAt: NOW - 10 }), 0, NOW)).toBe('opened');
    expect(accessStateOf(entry({ openedAt: NOW - 10 }), 3, NOW)).toBe('downloaded');
  });

  it('puts revocation and an expiry that passed before what the address did', () => {
    expect(accessStateOf(entry({ revokedAt: NOW - 5 }), 2, NOW)).toBe('revoked');
    expect(accessStateOf(entry({ expiresAt: NOW }), 2, NOW)).toBe('expired');
    expect(accessStateOf(entry({ expiresAt: NOW + 1 }), 2, NOW)).toBe('downloaded');
  });
});

describe('isAtDomain', () => {
  it('matches the domain itself only, never a subdomain or a look-alike', () => {
    expect(isAtDomain('ana@acme.example', 'acme.example')).toBe(true);
    expect(isAtDomain('ana@eu.acme.example', 'acme.example')).toBe(false);
    expect(isAtDomain('ana@evilacme.example', 'acme.example')).toBe(false);
    expect(isAtDomain('ana@acme.example', undefined)).toBe(false);
  });
});

describe('the send option', () => {
  it('reads a domain in lower case, without its @, and refuses what is no domain', () => {
    expect(z.parse(verifiedDomainSchema, ' @Acme.Example ')).toBe('acme.example');
    for (const bad of ['acme', 'a b.example', '-acme.example', 'acme..example', 'x@acme.example'])
      expect(z.safeParse(verifiedDomainSchema, bad).success, bad).toBe(false);
  });

  it('is part of the send body, its addresses checked like recipients', () => {
    const body = z.parse(sendBodySchema, { verifiedRecipients: { addresses: [' Ana@Example.com '] } });
    expect(body.verifiedRecipients).toEqual({ addresses: ['ana@example.com'] });
    expect(z.safeParse(sendBodySchema, { verifiedRecipients: { addresses: ['not-an-address'] } }).success).toBe(false);
  });

  it('refuses a send that names no one who could download', () => {
    expect(accessListIsEmpty({ sendAs: 'link', emailTo: [] }, { addresses: [] })).toBe(true);
    expect(accessListIsEmpty({ sendAs: 'link', emailTo: [] }, { addresses: [], domain: 'acme.example' })).toBe(false);
    expect(accessListIsEmpty({ sendAs: 'email', emailTo: [{}] }, { addresses: [] })).toBe(false);
  });

  it("lists an email send's recipients with their links' ids, then the extra addresses once", () => {
    let n = 0;
    const entries = initialAccessEntries(
      [{ email: 'ana@example.com', recipientId: 'AnaLink1' }],
      ['ana@example.com', 'bo@example.com', 'bo@example.com'],
      () => `NewId00${(n += 1)}`,
      NOW,
    );
    expect(entries).toEqual([
      { email: 'ana@example.com', recipientId: 'AnaLink1', addedAt: NOW },
      { email: 'bo@example.com', recipientId: 'NewId001', addedAt: NOW },
    ]);
  });
});
