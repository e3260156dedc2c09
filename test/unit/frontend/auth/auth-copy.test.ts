import { createInstance, type i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEXTS } from '@domain/texts';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';

// The English copy of the account screens is the spec's (functions/domain/texts.ts).
let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: CATALOGUE.en },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
});
const t = (key: string): string => (i18n.t as (k: string) => string)(key);

describe('account copy in English', () => {
  it("matches the spec's fixed texts", () => {
    expect(t('auth.errors.authFailed')).toBe(TEXTS.authFailed);
    expect(t('auth.errors.connectionTrouble')).toBe(TEXTS.connectionTrouble);
    expect(t('auth.errors.emailTaken')).toBe(TEXTS.emailTaken);
    expect(t('auth.errors.incorrectCode')).toBe(TEXTS.incorrectCode);
    expect(t('auth.errors.incorrectCodeModal')).toBe(TEXTS.incorrectCodeModal);
    expect(t('auth.errors.passwordTooShort')).toBe(TEXTS.signupPasswordTooShort);
    expect(t('auth.sent.body')).toBe(TEXTS.resetLinkSent);
  });

  it("field messages are the domain schemas' own", () => {
    expect(t('auth.errors.invalidEmail')).toBe(TEXTS.invalidEmail);
    expect(t('auth.errors.emailRequired')).toBe(TEXTS.emailRequired);
    expect(t('auth.errors.passwordRequired')).toBe(TEXTS.passwordRequired);
  });

  it('says Back to login and Sign Up as the spec does', () => {
    expect(t('auth.forgot.back')).toBe('Back to login');
    expect(t('auth.login.signUp')).toBe('Sign Up');
  });
});
