/**
 * The sender's side of an end-to-end encrypted send (docs/e2e-format.md), loaded only once a
 * sender picks encryption: the WebCrypto and Argon2id code stays out of every first load. The
 * transfer key lives in this browser (the link's fragment, the resume checkpoint in its own
 * storage) and is never put in a request.
 */
import {
  cipherSizeOf,
  fileKeyOf,
  fromBase64url,
  keyCheckOf,
  keyFragment,
  keyFromPassphrase,
  newFileParams,
  newPassphraseParams,
  newTransferKey,
  sealRange,
  toBase64url,
  type E2eTransferParams,
} from '@domain/e2e-format';
import type { PartSealer } from './sealed-parts';

/** A send's key and the public parameters the create body carries. */
export interface E2eSendKey {
  readonly key: Uint8Array;
  readonly params: E2eTransferParams;
}

/**
 * A new transfer key: random for a link send (it travels in the link's fragment), derived from
 * the passphrase with Argon2id (fresh salt; the parameters go with the transfer) for an email send.
 */
export async function newSendKey(
  how: { readonly mode: 'link' } | { readonly mode: 'passphrase'; readonly passphrase: string },
): Promise<E2eSendKey> {
  if (how.mode === 'link') {
    const key = newTransferKey();
    return { key, params: { v: 1, mode: 'link', check: await keyCheckOf(key) } };
  }
  const kdf = newPassphraseParams();
  const key = await keyFromPassphrase(how.passphrase, kdf);
  return { key, params: { v: 1, mode: 'passphrase', kdf, check: await keyCheckOf(key) } };
}

/** A file entry of the create body, sealed: its stored size, its fresh salt and its plaintext size. */
export function sealedEntry<F extends { readonly size: number }>(
  file: F,
): F & { size: number; e2e: { salt: string; plainSize: number } } {
  const { salt } = newFileParams(file.size);
  return { ...file, size: cipherSizeOf(file.size), e2e: { salt, plainSize: file.size } };
}

/** The part sealer of one file (its key derived once). */
export async function partSealerOf(key: Uint8Array, salt: string, plainSize: number): Promise<PartSealer> {
  const fileKey = await fileKeyOf(key, salt);
  return { plainSize, seal: (start, plain) => sealRange(fileKey, plainSize, start, plain) };
}

/** A thumbnail's stored bytes: one file of the format under the file's thumbnail key. */
export async function sealThumbnail(key: Uint8Array, salt: string, image: Uint8Array): Promise<Uint8Array> {
  return sealRange(await fileKeyOf(key, salt, 'thumbnail'), image.length, 0, image);
}

/** The link a recipient opens: the transfer's link with the key in its fragment (never sent by a browser). */
export function linkWithKey(link: string, key: Uint8Array): string {
  return `${link.replace(/#.*$/u, '')}#${keyFragment(key)}`;
}

/** The key as the checkpoint keeps it (this browser's storage only). */
export function keyToText(key: Uint8Array): string {
  return toBase64url(key);
}

export function keyFromText(text: string): Uint8Array {
  return fromBase64url(text);
}
