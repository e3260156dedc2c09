/**
 * The transfer key of an end-to-end encrypted transfer, from the link's fragment or from a
 * passphrase, checked against the transfer's `check` value before anything is downloaded. The
 * key stays in this tab's memory: no request, log or report ever carries it.
 */
import {
  E2E_FORMAT_VERSION,
  keyFromFragment,
  keyFromPassphrase,
  keyMatches,
  type E2eTransferParams,
} from '@domain/e2e-format';

export type LinkKey =
  | { readonly kind: 'ok'; readonly key: Uint8Array }
  /** no `k=` in the fragment: the link was cut, or copied without its # part */
  | { readonly kind: 'missing' }
  /** a `k=` that is not a key, or a key that is not this transfer's */
  | { readonly kind: 'damaged' };

/** Reads and checks the key in a link's fragment (`location.hash`). */
export async function keyFromLink(hash: string, check: string): Promise<LinkKey> {
  const params = new URLSearchParams(hash.replace(/^#/u, ''));
  if (!params.has('k')) return { kind: 'missing' };
  const key = keyFromFragment(hash);
  if (!key || !(await keyMatches(key, check))) return { kind: 'damaged' };
  return { kind: 'ok', key };
}

/** The key a passphrase gives (Argon2id: about a second), or null when it is not this transfer's. */
export async function keyFromWords(passphrase: string, e2e: E2eTransferParams): Promise<Uint8Array | null> {
  if (!e2e.kdf) return null;
  let key: Uint8Array;
  try {
    key = await keyFromPassphrase(passphrase, e2e.kdf);
  } catch {
    return null;
  }
  return (await keyMatches(key, e2e.check)) ? key : null;
}

/** Whether this page reads the transfer's format version. */
export function formatKnown(e2e: E2eTransferParams): boolean {
  return e2e.v === E2E_FORMAT_VERSION;
}
