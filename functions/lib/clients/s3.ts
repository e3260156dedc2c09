/**
 * S3 through the AWS SDK v3: one S3Client per AWS region (buckets live in several), created on
 * first use; the endpoint comes from configuration (s3rver locally, path style), unset in AWS.
 * Presigned URLs come from @aws-sdk/s3-request-presigner (presign() below).
 */
import { S3Client, type S3ClientConfig, type ServiceInputTypes, type ServiceOutputTypes } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { config } from '../env';
import { DEFAULT_REQUEST_TIMEOUT_MS, REQUEST_HANDLER } from './timeouts';

/** SigV4 query signatures are valid for 7 days at most. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

const MiB = 1024 * 1024;

/** Per-call options of `client.send` (the SDK's HttpHandlerOptions, the members used here). */
export interface SendOptions {
  readonly requestTimeout?: number;
  readonly abortSignal?: AbortSignal;
}

/** CopyObject, UploadPartCopy and CompleteMultipartUpload: S3 may work for minutes before it answers. */
export const LONG_OPERATION: SendOptions = { requestTimeout: 15 * 60_000 };

/** An UploadPart or PutObject: 30 s plus a second per MiB of its body (a 16 MiB part at 1 MiB/s still makes it). */
export function uploadTimeout(bytes: number): SendOptions {
  return { requestTimeout: DEFAULT_REQUEST_TIMEOUT_MS + Math.ceil(bytes / MiB) * 1000 };
}

export interface S3Options {
  readonly region: string;
  /** the emulator's origin; path-style addressing when set */
  readonly endpoint?: string | undefined;
  /** default: the SDK's provider chain (Lambda's role); scripts and tests pass the emulator's pair */
  readonly credentials?: S3ClientConfig['credentials'];
}

/**
 * The client's configuration, the same locally and in AWS:
 * - checksums only where S3 requires one: the SDK's default (a CRC32 on every PUT) would put an
 *   empty-body CRC32 into presigned PUT URLs that a browser's PUT of the real bytes cannot
 *   match, and its aws-chunked checksum bodies are stored corrupted by s3rver;
 * - path style whenever an endpoint is configured (s3rver serves no virtual hosts);
 * - a request timeout (the SDK has none by default), which ends with the answer's headers, so a
 *   GetObject body streams on for as long as its reader takes.
 */
export function s3ClientConfig(opts: S3Options): S3ClientConfig {
  return {
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: new NodeHttpHandler(REQUEST_HANDLER),
  };
}

export function createS3Client(opts: S3Options): S3Client {
  return new S3Client(s3ClientConfig(opts));
}

const byRegion = new Map<string, S3Client>();

/** The S3 client of an AWS region, one per process. */
export function s3(awsRegion: string): S3Client {
  let client = byRegion.get(awsRegion);
  if (!client) {
    client = createS3Client({ region: awsRegion, endpoint: config().endpoints.s3 });
    byRegion.set(awsRegion, client);
  }
  return client;
}

/**
 * A presigned URL of a command (SigV4 in the query, UNSIGNED-PAYLOAD). Content-Length, and
 * Content-Type when the command sets it, are signed headers that stay headers (the browser
 * must send exactly these: the length pins an upload's size, the type a branding image's), not
 * hoisted to the query; the rest of the input (partNumber, uploadId, response-content-*) rides
 * in the signed query, RFC 3986-encoded. Expiry: 1 s to 7 days.
 */
export async function presign<I extends ServiceInputTypes, O extends ServiceOutputTypes>(
  client: S3Client,
  command: Parameters<typeof getSignedUrl<ServiceInputTypes, I, O>>[1],
  expiresIn: number,
): Promise<string> {
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_PRESIGN_SECONDS)
    throw new RangeError('presigned URLs expire after 1 s to 7 days');
  // The SDK gives every PUT a default Content-Type (application/octet-stream): signed, it would
  // refuse a browser's upload of a typed file, so it is signed only when the input names it.
  const typed = Boolean((command.input as { ContentType?: string }).ContentType);
  const pinned = new Set(typed ? ['content-length', 'content-type'] : ['content-length']);
  return getSignedUrl(client, command, { expiresIn, signableHeaders: pinned, unhoistableHeaders: pinned });
}
