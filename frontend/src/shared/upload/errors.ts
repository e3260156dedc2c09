/**
 * How an upload ends without success. Their own module, so the send form can tell the two
 * apart without loading the upload engine (engine.ts re-exports them).
 */

/** Spec §8: after 15 tries the upload fails with name, message, index, part and request id. */
export class UploadFailedError extends Error {
  readonly fileName: string;
  /** index of the file in the files passed to runUpload */
  readonly index: number;
  /** 1-based part number (1 for a single PUT); 0 when completing the file failed */
  readonly part: number;
  /** S3's x-amz-request-id of the last failed PUT, when it answered */
  readonly requestId?: string;
  readonly tries: number;

  constructor(init: {
    fileName: string;
    index: number;
    part: number;
    message: string;
    tries: number;
    requestId?: string;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'UploadFailedError';
    this.fileName = init.fileName;
    this.index = init.index;
    this.part = init.part;
    this.tries = init.tries;
    if (init.requestId) this.requestId = init.requestId;
  }
}

/** 'Upload cancelled': 'You aborted the upload.' */
export class UploadCancelledError extends Error {
  constructor() {
    super('You aborted the upload.');
    this.name = 'UploadCancelledError';
  }
}
