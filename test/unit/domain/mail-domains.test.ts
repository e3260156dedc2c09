import { describe, it, expect } from 'vitest';
import { COMMON_MAIL_DOMAINS, companyDomainOf, isCommonMailDomain } from '../../../functions/domain/mail-domains';

describe('common mail domains', () => {
  it('are the nine providers of the spec', () => {
    expect(COMMON_MAIL_DOMAINS).toEqual([
      'gmail',
      'hotmail',
      'yahoo',
      'outlook',
      'aol',
      'protonmail',
      'icloud',
      'live',
      'ymail',
    ]);
  });

  it('match any suffix of a listed provider', () => {
    for (const d of [
      'gmail.com',
      'hotmail.co.uk',
      'Yahoo.co.jp',
      'outlook.fr',
      'aol.com',
      'protonmail.ch',
      'icloud.com',
      'live.com',
      'ymail.com',
    ]) {
      expect(isCommonMailDomain(d), d).toBe(true);
    }
    expect(isCommonMailDomain('live-events.com')).toBe(false);
    expect(isCommonMailDomain('acme.com')).toBe(false);
  });

  it('give no company domain for free providers or malformed addresses', () => {
    expect(companyDomainOf('Ann@Acme.COM')).toBe('acme.com');
    expect(companyDomainOf('ann@gmail.com')).toBeNull();
    expect(companyDomainOf('ann@localhost')).toBeNull();
    expect(companyDomainOf('@acme.com')).toBeNull();
    expect(companyDomainOf('acme.com')).toBeNull();
  });
});
