import type { ReactNode } from 'react';
import type { DownloadFile } from '@domain/transfer-api';

/**
 * What an end-to-end encrypted transfer's page does instead of the plain one's: the browser
 * opens each file with the key while saving it, builds the ZIP itself, decrypts the previews.
 * Given by the sealed screen (its own chunk) to the transfer view, which stays as it is for
 * every other transfer.
 */
export interface SealedActions {
  /** fetches the sealed object from its presigned URL, opens it and saves the plaintext */
  saveFile(file: DownloadFile, url: string, signal: AbortSignal): Promise<void>;
  /** "Download all": a ZIP of the opened files, each read from its presigned URL asked for in its turn */
  saveAll(files: readonly DownloadFile[], signal: AbortSignal): Promise<void>;
  /**
   * The text of a failure only a sealed transfer has (a changed file, too large to save here),
   * '' for a save the visitor cancelled (nothing to say), else null.
   */
  errorText(failure: unknown): string | null;
  /** the decrypted previews, in place of the plain gallery */
  readonly previews: ReactNode;
  /** says the files are end-to-end encrypted and were not scanned */
  readonly notice: ReactNode;
}
