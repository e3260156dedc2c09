import { describe, expect, it } from 'vitest';
import { cipherSizeOf, keyFromFragment, newTransferKey } from '../../../../functions/domain/e2e-format';
import { linkWithKey, sealedEntry } from '../../../../frontend/src/shared/upload/e2e-seal';
import {
  E2E_PASSPHRASE_MIN_LENGTH,
  GUEST,
  e2eIssues,
  e2eModeOf,
  initialForm,
  toDraftInput,
  type SendForm,
  type SenderContext,
} from '../../../../frontend/src/shared/send-form/send-state';

const SIGNED_IN: SenderContext = { role: 'pro', signedIn: true, email: 'pro@example.com' };

function form(over: Partial<SendForm>): SendForm {
  return { ...initialForm(), files: [{ fileName: 'a.txt', size: 10, blob: new Blob(['0123456789']) }], ...over };
}

describe('the send form with end-to-end encryption', () => {
  it("encrypts a signed-in sender's send only: the key by link, or from a passphrase by email", () => {
    expect(e2eModeOf(form({ e2e: true, sendAs: 'link' }), SIGNED_IN)).toBe('link');
    expect(e2eModeOf(form({ e2e: true, sendAs: 'email' }), SIGNED_IN)).toBe('passphrase');
    expect(e2eModeOf(form({ e2e: true, sendAs: 'email' }), GUEST)).toBeNull();
    expect(e2eModeOf(form({ sendAs: 'link' }), SIGNED_IN)).toBeNull();
  });

  it('asks an email send for a passphrase of 12 characters at least, typed the same twice', () => {
    const by = (e2ePassphrase: string, e2ePassphraseConfirm: string) =>
      e2eIssues(form({ e2e: true, sendAs: 'email', e2ePassphrase, e2ePassphraseConfirm }), SIGNED_IN).map(
        (i) => `${i.field}:${i.code}`,
      );
    const twelve = 'x'.repeat(E2E_PASSPHRASE_MIN_LENGTH);
    expect(E2E_PASSPHRASE_MIN_LENGTH).toBe(12);
    expect(by(twelve.slice(1), twelve.slice(1))).toEqual(['e2e:e2e_passphrase_too_short']);
    expect(by(twelve, `${twelve}!`)).toEqual(['e2e:e2e_passphrase_mismatch']);
    expect(by(twelve, twelve)).toEqual([]);
    // characters, not UTF-16 units: 12 emoji are 12 characters
    expect(by('🔑'.repeat(12), '🔑'.repeat(12))).toEqual([]);
    // a link send, and a plain one, need none
    expect(e2eIssues(form({ e2e: true, sendAs: 'link' }), SIGNED_IN)).toEqual([]);
    expect(e2eIssues(form({ sendAs: 'email' }), SIGNED_IN)).toEqual([]);
  });

  it('sends no download password with an encrypted send, and keeps it with a plain one', () => {
    expect(toDraftInput(form({ e2e: true, sendAs: 'link', password: 'hunter22' }), SIGNED_IN).password).toBeUndefined();
    expect(toDraftInput(form({ sendAs: 'link', password: 'hunter22' }), SIGNED_IN).password).toBe('hunter22');
    // the draft never carries the passphrase
    const draft = toDraftInput(
      form({ e2e: true, sendAs: 'email', e2ePassphrase: 'correct horse battery', recipients: ['a@example.com'] }),
      SIGNED_IN,
    );
    expect(JSON.stringify(draft)).not.toContain('correct horse');
  });

  it('asks for no review with an encrypted send (SendBridge could not show the files to comment on)', () => {
    expect(toDraftInput(form({ e2e: true, sendAs: 'link', review: true }), SIGNED_IN).review).toBeUndefined();
    expect(toDraftInput(form({ sendAs: 'link', review: true }), SIGNED_IN).review).toBe(true);
  });

  it('lists each file sealed (stored size, fresh salt, plaintext size) and puts the key in the link fragment only', () => {
    const one = sealedEntry({ fileName: 'a.txt', size: 3_000_000, itemPath: 'x/a.txt' });
    const two = sealedEntry({ fileName: 'a.txt', size: 3_000_000 });
    expect(one).toMatchObject({ fileName: 'a.txt', itemPath: 'x/a.txt', size: cipherSizeOf(3_000_000) });
    expect(one.e2e.plainSize).toBe(3_000_000);
    expect(one.e2e.salt).toMatch(/^[A-Za-z0-9_-]{22}$/u);
    expect(two.e2e.salt).not.toBe(one.e2e.salt);
    const key = newTransferKey();
    const link = new URL(linkWithKey('https://app.example/downloads/Ab3dE7x/abcdefgh#old', key));
    expect(link.pathname).toBe('/downloads/Ab3dE7x/abcdefgh');
    expect(link.search).toBe('');
    expect(keyFromFragment(link.hash)).toEqual(key);
  });
});
