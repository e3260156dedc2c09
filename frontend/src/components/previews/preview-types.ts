/** A file as the pages list it (download page, TransferModal). */
export interface PreviewFile {
  readonly fileId: string;
  readonly fileName: string;
  readonly size: number;
}
