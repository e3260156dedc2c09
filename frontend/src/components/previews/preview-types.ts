import type { PreviewsResponse } from '@domain/previews';

/** A file as the pages list it (download page, TransferModal). */
export interface PreviewFile {
  readonly fileId: string;
  readonly fileName: string;
  readonly size: number;
}

/** What the previews' gallery shows and how it asks for them (lazy-previews.tsx loads it). */
export interface PreviewsProps {
  /** the transfer's files, in the page's order */
  readonly files: readonly PreviewFile[];
  /** asks the API for fresh previews (and their URLs) */
  readonly load: (signal: AbortSignal) => Promise<PreviewsResponse>;
}
