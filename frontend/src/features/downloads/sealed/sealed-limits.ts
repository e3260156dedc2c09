/**
 * The sizes the recipient's browser handles an end-to-end encrypted file up to, where it must
 * hold the decrypted bytes in memory (docs/e2e-format.md, "The download page").
 */
/** Decimal, as the app shows every size ('256 MB'). */
const MB = 1_000_000;

/** Audio and video play, and images, PDFs and texts open in the viewer, up to this size. */
export const SEALED_PLAY_MAX_BYTES = 256 * MB;
/** Where neither a service worker nor the File System Access API can stream to disk, a file is saved from memory up to this size. */
export const SEALED_BLOB_SAVE_MAX_BYTES = 1000 * MB;

export type SaveMethod =
  /** the service worker serves a same-origin download whose body this page streams */
  | 'worker'
  /** the File System Access API's writable: written as it opens, kept only when whole */
  | 'picker'
  /** in memory, then saved as a Blob */
  | 'blob';

export interface SaveAbilities {
  readonly serviceWorker: boolean;
  readonly fileSystemAccess: boolean;
}

/**
 * The ways to save `size` bytes here, best first: each streams to disk but the last, which
 * holds the file in memory and so is left out above its limit (an empty list: too large here).
 */
export function saveMethodsFor(abilities: SaveAbilities, size: number): SaveMethod[] {
  const methods: SaveMethod[] = [];
  if (abilities.serviceWorker) methods.push('worker');
  if (abilities.fileSystemAccess) methods.push('picker');
  if (size <= SEALED_BLOB_SAVE_MAX_BYTES) methods.push('blob');
  return methods;
}
