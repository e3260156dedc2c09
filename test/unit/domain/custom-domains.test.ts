import { describe, expect, it } from 'vitest';
import {
  FIRST_CHECK_DELAY_MS,
  MAX_CHECK_DELAY_MS,
  PENDING_WINDOW_MS,
  checkCustomHost,
  customDomainInPlan,
  dkimRecords,
  nextCheckDelay,
  productDomains,
  senderFrom,
  statusAfterCheck,
} from '../../../functions/domain/custom-domains';
import { ROLES, limitsFor } from '../../../functions/domain/plans';

const PRODUCT = ['app.sendbridge.com', 'edge.sendbridge.com'];
const check = (typed: string) => checkCustomHost(typed, PRODUCT);

describe('checkCustomHost', () => {
  it('accepts host names, lower-cased, without the trailing dot, IDNs as punycode', () => {
    expect(check('Files.Acme.com')).toEqual({ ok: true, host: 'files.acme.com' });
    expect(check(' files.acme.com. ')).toEqual({ ok: true, host: 'files.acme.com' });
    expect(check('acme.co.uk')).toEqual({ ok: true, host: 'acme.co.uk' });
    expect(check('dateien.bücher.de')).toEqual({ ok: true, host: 'dateien.xn--bcher-kva.de' });
    expect(check('xn--bcher-kva.de')).toEqual({ ok: true, host: 'xn--bcher-kva.de' });
  });

  it('refuses IP addresses in every notation', () => {
    for (const ip of ['203.0.113.7', '127.1', '0x7f.0.0.1', '2130706433', '[::1]', '::1', '2001:db8::1'])
      expect(check(ip), ip).toEqual({ ok: false, code: 'domain_ip' });
  });

  it('refuses wildcards, schemes, ports, paths, queries and user parts', () => {
    expect(check('*.acme.com')).toEqual({ ok: false, code: 'domain_wildcard' });
    for (const bad of [
      'https://files.acme.com',
      'files.acme.com:443',
      'files.acme.com/w',
      'files.acme.com?x=1',
      'user@files.acme.com',
      'files.acme.com#x',
      'files\\acme.com',
    ]) {
      expect(check(bad), bad).toEqual({ ok: false, code: 'domain_port_or_path' });
    }
  });

  it('refuses names over 253 characters or with a label over 63', () => {
    const long = `${Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')}.com`;
    expect(check(long)).toEqual({ ok: false, code: 'domain_too_long' });
    expect(check(`${'a'.repeat(64)}.com`)).toEqual({ ok: false, code: 'domain_too_long' });
    expect(check(`${'a'.repeat(63)}.com`).ok).toBe(true);
  });

  it('refuses invalid labels, single labels, numeric top-level labels and reserved names', () => {
    for (const bad of [
      '',
      '   ',
      'acme',
      '-acme.com',
      'acme-.com',
      'ac_me.com',
      'acme..com',
      'files.acme.123',
      'localhost',
      'files.localhost',
      'printer.local',
      'x.invalid',
      'a b.com',
      'ac%6de.com',
    ]) {
      expect(check(bad), bad).toMatchObject({ ok: false });
    }
  });

  it("refuses the product's hosts, their parent domain and what is under it", () => {
    for (const bad of ['app.sendbridge.com', 'sendbridge.com', 'files.sendbridge.com', 'EDGE.sendbridge.com'])
      expect(check(bad), bad).toEqual({ ok: false, code: 'domain_product' });
    expect(check('sendbridge.com.evil.test').ok).toBe(true);
    expect(productDomains(['127.0.0.1', 'localhost', 'example.com'])).toEqual(['example.com']);
  });
});

describe('plans', () => {
  it('give custom domains from pro up and email domains from business up (spec §6)', () => {
    expect(ROLES.filter(customDomainInPlan)).toEqual([
      'pro',
      'business',
      'businessplus',
      'businesselite',
      'team',
      'teamplus',
      'teamelite',
      'premium',
    ]);
    expect(ROLES.filter((r) => limitsFor(r).emailDomain)).toEqual([
      'business',
      'businessplus',
      'businesselite',
      'team',
      'teamplus',
      'teamelite',
    ]);
    expect(limitsFor('pro').emailDomain).toBe(false);
    expect(limitsFor('business').emailDomain).toBe(true);
  });
});

describe('checks', () => {
  it('back off from 15 minutes, doubling, up to 6 hours', () => {
    expect(nextCheckDelay(0)).toBe(FIRST_CHECK_DELAY_MS);
    expect(nextCheckDelay(1)).toBe(2 * FIRST_CHECK_DELAY_MS);
    expect(nextCheckDelay(3)).toBe(8 * FIRST_CHECK_DELAY_MS);
    expect(nextCheckDelay(50)).toBe(MAX_CHECK_DELAY_MS);
  });

  it('verify with no problem, stay pending within 72 hours, fail after', () => {
    expect(statusAfterCheck([], 0, 10)).toBe('verified');
    const missing = [{ record: 'txt', state: 'missing' }] as const;
    expect(statusAfterCheck(missing, 0, PENDING_WINDOW_MS)).toBe('pending');
    expect(statusAfterCheck(missing, 0, PENDING_WINDOW_MS + 1)).toBe('failed');
  });
});

describe('sender email domains', () => {
  it('name the three Easy DKIM CNAMEs as SES does', () => {
    expect(dkimRecords('mail.acme.com', ['abc', 'def'])).toEqual([
      { type: 'CNAME', name: 'abc._domainkey.mail.acme.com', value: 'abc.dkim.amazonses.com' },
      { type: 'CNAME', name: 'def._domainkey.mail.acme.com', value: 'def.dkim.amazonses.com' },
    ]);
  });

  it("send from the user's name on their verified domain, else on the product's address, never with header injection", () => {
    const product = 'SendBridge <no-reply@sendbridge.com>';
    expect(senderFrom('Ana Lopez', product, 'acme.com')).toBe('"Ana Lopez" <no-reply@acme.com>');
    expect(senderFrom('Ana Lopez', product, undefined)).toBe('"Ana Lopez" <no-reply@sendbridge.com>');
    expect(senderFrom(undefined, product, undefined)).toBe(product);
    expect(senderFrom('', product, 'acme.com')).toBe('no-reply@acme.com');
    expect(senderFrom('Eve"\r\nBcc: x@y.z <a>', product, undefined)).toBe(
      '"Eve Bcc: x@y.z a" <no-reply@sendbridge.com>',
    );
  });
});
