import type { Params } from 'react-router';
import { isRecipientId, isSlug } from '@domain/id-patterns';
import { DOWNLOAD_ZIP_SEGMENT } from '@/app/paths';

/** What the address of a download page asks for. */
export interface DownloadRoute {
  /** the transfer's public id (the /w slug); undefined when the address cannot name a transfer */
  readonly id: string | undefined;
  /** the recipient id of an emailed link, passed on so the sender sees who downloaded */
  readonly recipient: string | undefined;
  /** start the ZIP of all files as soon as the page can (the email's "Download all" link) */
  readonly autoZip: boolean;
}

/**
 * Reads /downloads/{id}/{user?}/{downloadZip?}, /d/{id}/{user?} and /w/{slug}.
 * 'downloadZip' may stand in the user slot too (/downloads/{id}/downloadZip): a recipient id
 * is 8 characters, so the two cannot be confused. A malformed recipient id is dropped rather
 * than failing the page, since the link still names the transfer; a malformed transfer id
 * gives `id: undefined`, which the page shows as the spec's 404.
 */
export function parseDownloadRoute(params: Params): DownloadRoute {
  const rawId = params.id ?? params.slug;
  const id = isSlug(rawId) ? rawId : undefined;
  const user = params.user;
  const last = params.downloadZip;
  const autoZip = last === DOWNLOAD_ZIP_SEGMENT || (user === DOWNLOAD_ZIP_SEGMENT && last === undefined);
  const recipient = isRecipientId(user) ? user : undefined;
  return { id, recipient, autoZip };
}
