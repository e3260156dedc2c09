/**
 * S3 (REST/XML) for the operations functions/ uses, and presigned URLs. Inputs and outputs are
 * the SDK's types (members we send or read only). Virtual-hosted URLs in AWS
 * (`{bucket}.s3.{region}.amazonaws.com`), path style when an endpoint is configured (the local
 * emulator), as the SDK client was configured (forcePathStyle when an endpoint is set).
 * Object keys: every path segment RFC 3986-encoded, `/` kept, the encoding SigV4 signs.
 * No checksums beyond what S3 requires (Content-MD5 on DeleteObjects), as the SDK client's
 * `requestChecksumCalculation: 'WHEN_REQUIRED'` did.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { AwsV4Signer } from 'aws4fetch';
import type {
  AbortMultipartUploadCommandInput,
  CompleteMultipartUploadCommandInput,
  CompleteMultipartUploadCommandOutput,
  CopyObjectCommandInput,
  CopyObjectCommandOutput,
  CreateMultipartUploadCommandInput,
  CreateMultipartUploadCommandOutput,
  DeleteObjectCommandInput,
  DeleteObjectsCommandInput,
  DeleteObjectsCommandOutput,
  GetObjectCommandInput,
  HeadObjectCommandInput,
  HeadObjectCommandOutput,
  ListObjectsV2CommandInput,
  ListObjectsV2CommandOutput,
  UploadPartCommandInput,
  UploadPartCommandOutput,
  UploadPartCopyCommandInput,
  UploadPartCopyCommandOutput,
} from '@aws-sdk/client-s3';
import { config } from '../env';
import { AwsError, envCredentials, send, type AwsCredentials, type AwsRequest } from './core';
import { escapeXmlText, xmlBlocks, xmlRoot, xmlText } from './xml';

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const MiB = 1024 * 1024;
/** A server-side copy or a completion of many parts may take minutes; S3 keeps the connection busy meanwhile. */
const LONG_OPERATION_MS = 15 * 60_000;
/** SigV4 query signatures are valid for 7 days at most. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** encodeURIComponent plus the characters it leaves that RFC 3986 reserves (SigV4's URI encoding). */
export function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An object key as a URL path: each segment encoded, `/` kept. */
export function encodeKey(key: string): string {
  const segments = key.split('/');
  // A URL parser resolves dot segments (even encoded ones): such a key would name another object.
  if (segments.some((s) => s === '.' || s === '..')) throw new Error('object keys with "." or ".." path segments are not supported');
  return segments.map(encodeRfc3986).join('/');
}

export function encodeQuery(query: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(query)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(String(v))}`)
    .join('&');
}

/** Bucket names usable as a DNS label under TLS (no dots), as the SDK decides virtual-hosted style. */
const VIRTUAL_HOSTABLE = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/u;

export interface S3Options {
  readonly region: string;
  /** the emulator's origin; path-style addressing when set */
  readonly endpoint?: string | undefined;
  /** default: the environment's, read at each request (tests and benches pass the emulator's) */
  readonly credentials?: AwsCredentials;
}

type Query = Readonly<Record<string, string | number | undefined>>;
type Headers = Record<string, string>;

function defined(headers: Record<string, string | number | undefined>): Headers {
  const out: Headers = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = String(v);
  return out;
}

const STATUS_NAMES: Record<number, string> = { 301: 'MovedPermanently', 304: 'NotModified', 400: 'BadRequest', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed', 412: 'PreconditionFailed' };

function s3Error(xml: string, status: number, requestId: string | undefined): AwsError {
  // A HEAD has no body: the status names the error (404 -> NotFound, as the SDK names it).
  const code = xmlText(xml, 'Code') ?? STATUS_NAMES[status] ?? `Http${status}Error`;
  return new AwsError(code, xmlText(xml, 'Message') ?? '', status, { Code: code }, requestId);
}

async function parseS3Error(res: Response): Promise<AwsError> {
  const text = await res.text().catch(() => '');
  return s3Error(text, res.status, res.headers.get('x-amz-request-id') ?? undefined);
}

/** CopyObject, UploadPartCopy and CompleteMultipartUpload may answer 200 with an error document. */
async function xmlOrError(res: Response): Promise<string> {
  const text = await res.text();
  if (xmlRoot(text) === 'Error') throw s3Error(text, res.status, res.headers.get('x-amz-request-id') ?? undefined);
  return text;
}

const drain = async (res: Response) => {
  await res.arrayBuffer();
};

export type GetObjectResult = {
  /** a Node stream, as the SDK's; destroy() it to stop early */
  readonly Body: Readable;
  readonly ContentLength?: number;
  readonly ContentType?: string;
  readonly ETag?: string;
};

type Obj = { Bucket: string | undefined; Key: string | undefined };
const need = (v: string | undefined, name: string): string => {
  if (!v) throw new Error(`S3: ${name} is required`);
  return v;
};

export function createS3(opts: S3Options) {
  const { region } = opts;
  const endpoint = opts.endpoint?.replace(/\/+$/u, '');
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';

  function url(bucket: string, key: string | undefined, query: Query = {}): string {
    const path = key === undefined ? '' : `/${encodeKey(key)}`;
    const qs = encodeQuery(query);
    let base: string;
    if (endpoint) base = `${endpoint}/${bucket}${path}`;
    else if (VIRTUAL_HOSTABLE.test(bucket)) base = `https://${bucket}.s3.${region}.${suffix}${path || '/'}`;
    else base = `https://s3.${region}.${suffix}/${bucket}${path}`;
    return qs ? `${base}?${qs}` : base;
  }

  function request<T>(
    req: Omit<AwsRequest, 'service' | 'region' | 'url'> & { bucket: string; key?: string; query?: Query },
    read: (res: Response) => Promise<T>,
  ): Promise<T> {
    const { bucket, key, query, ...rest } = req;
    return send({ ...rest, service: 's3', region, url: url(bucket, key, query), ...(opts.credentials ? { credentials: opts.credentials } : {}) }, { parseError: parseS3Error, read });
  }

  return {
    async headBucket(input: { Bucket: string }): Promise<void> {
      await request({ method: 'HEAD', bucket: input.Bucket }, drain);
    },

    async headObject(input: Pick<HeadObjectCommandInput, 'Bucket' | 'Key'>): Promise<Pick<HeadObjectCommandOutput, 'ContentLength' | 'ContentType' | 'ETag'>> {
      return request({ method: 'HEAD', bucket: need(input.Bucket, 'Bucket'), key: need(input.Key, 'Key') }, async (res) => {
        await drain(res);
        const length = res.headers.get('content-length');
        const type = res.headers.get('content-type');
        const etag = res.headers.get('etag');
        return { ...(length !== null ? { ContentLength: Number(length) } : {}), ...(type ? { ContentType: type } : {}), ...(etag ? { ETag: etag } : {}) };
      });
    },

    /** Streams the body: the attempt's timeout ends with the answer's headers, the caller's signal still stops the body. */
    async getObject(input: Pick<GetObjectCommandInput, 'Bucket' | 'Key' | 'Range' | 'IfMatch'>, options: { signal?: AbortSignal } = {}): Promise<GetObjectResult> {
      return request(
        {
          method: 'GET',
          bucket: need(input.Bucket, 'Bucket'),
          key: need(input.Key, 'Key'),
          headers: defined({ range: input.Range, 'if-match': input.IfMatch }),
          ...(options.signal ? { signal: options.signal } : {}),
        },
        async (res) => {
          const length = res.headers.get('content-length');
          const type = res.headers.get('content-type');
          const etag = res.headers.get('etag');
          const Body = res.body ? Readable.fromWeb(res.body as NodeWebReadableStream<Uint8Array>) : Readable.from([]);
          return { Body, ...(length !== null ? { ContentLength: Number(length) } : {}), ...(type ? { ContentType: type } : {}), ...(etag ? { ETag: etag } : {}) };
        },
      );
    },

    async deleteObject(input: Pick<DeleteObjectCommandInput, 'Bucket' | 'Key'>): Promise<void> {
      await request({ method: 'DELETE', bucket: need(input.Bucket, 'Bucket'), key: need(input.Key, 'Key') }, drain);
    },

    /** Per-key failures come back in Errors (S3 answers 200), as with the SDK. */
    async deleteObjects(input: Pick<DeleteObjectsCommandInput, 'Bucket' | 'Delete'>): Promise<Pick<DeleteObjectsCommandOutput, 'Deleted' | 'Errors'>> {
      const objects = (input.Delete?.Objects ?? []).map((o) => `<Object><Key>${escapeXmlText(need(o.Key, 'Key'))}</Key></Object>`).join('');
      const body = `<Delete xmlns="${XMLNS}">${input.Delete?.Quiet ? '<Quiet>true</Quiet>' : ''}${objects}</Delete>`;
      const md5 = createHash('md5').update(body).digest('base64');
      return request(
        { method: 'POST', bucket: need(input.Bucket, 'Bucket'), query: { delete: '' }, headers: { 'content-type': 'application/xml', 'content-md5': md5 }, body },
        async (res) => {
          const xml = await xmlOrError(res);
          return {
            Deleted: xmlBlocks(xml, 'Deleted').map((d) => ({ Key: xmlText(d, 'Key') })),
            Errors: xmlBlocks(xml, 'Error').map((e) => ({ Key: xmlText(e, 'Key'), Code: xmlText(e, 'Code'), Message: xmlText(e, 'Message') })),
          };
        },
      );
    },

    async listObjectsV2(
      input: Pick<ListObjectsV2CommandInput, 'Bucket' | 'Prefix' | 'ContinuationToken' | 'MaxKeys'>,
    ): Promise<Pick<ListObjectsV2CommandOutput, 'Contents' | 'IsTruncated' | 'NextContinuationToken'>> {
      const query = { 'list-type': '2', prefix: input.Prefix, 'continuation-token': input.ContinuationToken, 'max-keys': input.MaxKeys };
      return request({ method: 'GET', bucket: need(input.Bucket, 'Bucket'), query }, async (res) => {
        const xml = await res.text();
        const next = xmlText(xml, 'NextContinuationToken');
        return {
          Contents: xmlBlocks(xml, 'Contents').map((c) => {
            const size = xmlText(c, 'Size');
            return { Key: xmlText(c, 'Key'), ...(size !== undefined ? { Size: Number(size) } : {}) };
          }),
          IsTruncated: xmlText(xml, 'IsTruncated') === 'true',
          ...(next ? { NextContinuationToken: next } : {}),
        };
      });
    },

    async createMultipartUpload(
      input: Pick<CreateMultipartUploadCommandInput, 'Bucket' | 'Key' | 'ContentType' | 'ContentDisposition'>,
      options: { signal?: AbortSignal } = {},
    ): Promise<Pick<CreateMultipartUploadCommandOutput, 'UploadId'>> {
      return request(
        {
          method: 'POST',
          bucket: need(input.Bucket, 'Bucket'),
          key: need(input.Key, 'Key'),
          query: { uploads: '' },
          headers: defined({ 'content-type': input.ContentType, 'content-disposition': input.ContentDisposition }),
          ...(options.signal ? { signal: options.signal } : {}),
        },
        async (res) => ({ UploadId: xmlText(await xmlOrError(res), 'UploadId') }),
      );
    },

    /** A small whole object from a buffer (issue 16: thumbnails), with its type. */
    async putObject(input: { Bucket: string; Key: string; Body: Uint8Array; ContentType: string; CacheControl?: string }): Promise<Pick<UploadPartCommandOutput, 'ETag'>> {
      return request(
        {
          method: 'PUT',
          bucket: need(input.Bucket, 'Bucket'),
          key: need(input.Key, 'Key'),
          headers: defined({ 'content-type': input.ContentType, 'cache-control': input.CacheControl }),
          body: input.Body,
          timeoutMs: 30_000 + Math.ceil(input.Body.byteLength / MiB) * 1000,
        },
        async (res) => {
          await drain(res);
          const etag = res.headers.get('etag');
          return etag ? { ETag: etag } : {};
        },
      );
    },

    /** The body is a buffer (replayable: a failed attempt sends it again). */
    async uploadPart(
      input: Pick<UploadPartCommandInput, 'Bucket' | 'Key' | 'UploadId' | 'PartNumber'> & { Body: Uint8Array },
      options: { signal?: AbortSignal } = {},
    ): Promise<Pick<UploadPartCommandOutput, 'ETag'>> {
      return request(
        {
          method: 'PUT',
          bucket: need(input.Bucket, 'Bucket'),
          key: need(input.Key, 'Key'),
          query: { partNumber: input.PartNumber, uploadId: need(input.UploadId, 'UploadId') },
          body: input.Body,
          // 30 s plus a second per MiB: a 16 MiB part at 1 MiB/s still makes it.
          timeoutMs: 30_000 + Math.ceil(input.Body.byteLength / MiB) * 1000,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        async (res) => {
          await drain(res);
          const etag = res.headers.get('etag');
          return etag ? { ETag: etag } : {};
        },
      );
    },

    async uploadPartCopy(
      input: Pick<UploadPartCopyCommandInput, 'Bucket' | 'Key' | 'UploadId' | 'PartNumber' | 'CopySource' | 'CopySourceRange'>,
    ): Promise<Pick<UploadPartCopyCommandOutput, 'CopyPartResult'>> {
      return request(
        {
          method: 'PUT',
          bucket: need(input.Bucket, 'Bucket'),
          key: need(input.Key, 'Key'),
          query: { partNumber: input.PartNumber, uploadId: need(input.UploadId, 'UploadId') },
          headers: defined({ 'x-amz-copy-source': need(input.CopySource, 'CopySource'), 'x-amz-copy-source-range': input.CopySourceRange }),
          timeoutMs: LONG_OPERATION_MS,
        },
        async (res) => {
          const etag = xmlText(await xmlOrError(res), 'ETag');
          return { CopyPartResult: etag ? { ETag: etag } : {} };
        },
      );
    },

    async completeMultipartUpload(
      input: Pick<CompleteMultipartUploadCommandInput, 'Bucket' | 'Key' | 'UploadId' | 'MultipartUpload'>,
      options: { signal?: AbortSignal } = {},
    ): Promise<Pick<CompleteMultipartUploadCommandOutput, 'ETag'>> {
      const parts = (input.MultipartUpload?.Parts ?? [])
        .map((p) => `<Part><PartNumber>${p.PartNumber}</PartNumber><ETag>${escapeXmlText(need(p.ETag, 'ETag'))}</ETag></Part>`)
        .join('');
      return request(
        {
          method: 'POST',
          bucket: need(input.Bucket, 'Bucket'),
          key: need(input.Key, 'Key'),
          query: { uploadId: need(input.UploadId, 'UploadId') },
          headers: { 'content-type': 'application/xml' },
          body: `<CompleteMultipartUpload xmlns="${XMLNS}">${parts}</CompleteMultipartUpload>`,
          timeoutMs: LONG_OPERATION_MS,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        async (res) => {
          const etag = xmlText(await xmlOrError(res), 'ETag');
          return etag ? { ETag: etag } : {};
        },
      );
    },

    /** The bucket's CORS configuration as S3 returns it (XML), or undefined when it has none. */
    async getBucketCors(input: { Bucket: string }): Promise<string | undefined> {
      try {
        return await request({ method: 'GET', bucket: input.Bucket, query: { cors: '' } }, xmlOrError);
      } catch (err) {
        if (err instanceof AwsError && err.name === 'NoSuchCORSConfiguration') return undefined;
        throw err;
      }
    },

    /** Replaces the bucket's CORS configuration (S3 requires Content-MD5 here). */
    async putBucketCors(input: { Bucket: string; ConfigurationXml: string }): Promise<void> {
      const md5 = createHash('md5').update(input.ConfigurationXml).digest('base64');
      await request(
        { method: 'PUT', bucket: input.Bucket, query: { cors: '' }, headers: { 'content-type': 'application/xml', 'content-md5': md5 }, body: input.ConfigurationXml },
        drain,
      );
    },

    async deleteBucketCors(input: { Bucket: string }): Promise<void> {
      await request({ method: 'DELETE', bucket: input.Bucket, query: { cors: '' } }, drain);
    },

    async abortMultipartUpload(input: Pick<AbortMultipartUploadCommandInput, 'Bucket' | 'Key' | 'UploadId'>): Promise<void> {
      await request({ method: 'DELETE', bucket: need(input.Bucket, 'Bucket'), key: need(input.Key, 'Key'), query: { uploadId: need(input.UploadId, 'UploadId') } }, drain);
    },

    /** CopySource is `bucket/key` with the key already URL-encoded (storage.ts copySource). */
    async copyObject(input: Pick<CopyObjectCommandInput, 'Bucket' | 'Key' | 'CopySource' | 'MetadataDirective'>): Promise<Pick<CopyObjectCommandOutput, 'CopyObjectResult'>> {
      return request(
        {
          method: 'PUT',
          bucket: need(input.Bucket, 'Bucket'),
          key: need(input.Key, 'Key'),
          headers: defined({ 'x-amz-copy-source': need(input.CopySource, 'CopySource'), 'x-amz-metadata-directive': input.MetadataDirective }),
          timeoutMs: LONG_OPERATION_MS,
        },
        async (res) => {
          const etag = xmlText(await xmlOrError(res), 'ETag');
          return { CopyObjectResult: etag ? { ETag: etag } : {} };
        },
      );
    },

    /**
     * A presigned URL (SigV4 in the query, UNSIGNED-PAYLOAD) as @aws-sdk/s3-request-presigner
     * makes it: `headers` are signed (the client must send exactly these, e.g. content-length
     * pins an upload's size), `query` rides along signed (partNumber, uploadId,
     * response-content-disposition...). The query is RFC 3986-encoded, spaces as %20.
     */
    async presign(
      method: 'GET' | 'PUT' | 'HEAD',
      input: Obj & { query?: Query; headers?: Readonly<Record<string, string | number | undefined>> },
      expiresIn: number,
    ): Promise<string> {
      if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_PRESIGN_SECONDS) throw new RangeError('presigned URLs expire after 1 s to 7 days');
      const credentials = opts.credentials ?? envCredentials();
      const signer = new AwsV4Signer({
        method,
        // X-Amz-Content-Sha256 in the query too, as the SDK's presigner writes it (the signature covers it).
        url: url(need(input.Bucket, 'Bucket'), need(input.Key, 'Key'), { ...input.query, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD', 'X-Amz-Expires': expiresIn }),
        headers: defined(input.headers ?? {}),
        service: 's3',
        region,
        signQuery: true,
        // Sign exactly the headers given (aws4fetch leaves content-type and content-length out otherwise).
        allHeaders: true,
        accessKeyId: credentials.accessKeyId,
        secretAccessKey: credentials.secretAccessKey,
        ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
      });
      const signed = (await signer.sign()).url;
      // URLSearchParams writes spaces as '+'; write the query as SigV4 canonicalised it.
      const qs = [...signed.searchParams].map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`).join('&');
      return `${signed.origin}${signed.pathname}?${qs}`;
    },
  };
}

export type S3 = ReturnType<typeof createS3>;

const byRegion = new Map<string, S3>();

/** The S3 client of an AWS region (buckets live in several), one per process. */
export function s3(awsRegion: string): S3 {
  let client = byRegion.get(awsRegion);
  if (!client) {
    client = createS3({ region: awsRegion, endpoint: config().endpoints.s3 });
    byRegion.set(awsRegion, client);
  }
  return client;
}
