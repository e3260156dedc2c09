/**
 * Presigned URLs of the functions' S3 client (functions/lib/clients/s3.ts through
 * functions/adapters/storage.ts): what a browser can send to real S3. s3rver verifies no
 * signature, so the URLs' signed parts are checked here: no checksum a browser PUT cannot send,
 * Content-Length and Content-Type signed as headers, the parameters of multipart parts and
 * downloads in the signed query.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createS3Client, MAX_PRESIGN_SECONDS, presign, s3ClientConfig } from '../../../functions/lib/clients/s3';
import { UNIT_ENV } from '../../helpers/events';

const ref = { regionId: 'hongkong', anon: false, key: 't/abc/f1' } as const;
const signedHeaders = (url: URL) => url.searchParams.get('X-Amz-SignedHeaders')!.split(';');
const checksumParams = (url: URL) =>
  [...url.searchParams.keys()].filter((k) => /^x-amz-(checksum-|sdk-checksum-algorithm)/iu.test(k));

const saved = { ...process.env };
let storage: typeof import('../../../functions/adapters/storage');

beforeAll(async () => {
  vi.resetModules();
  process.env = { ...saved, ...UNIT_ENV };
  storage = await import('../../../functions/adapters/storage');
});

afterAll(() => {
  process.env = saved;
});

describe('presigned uploads', () => {
  it('a whole-object PUT signs its Content-Length as a header and carries no checksum', async () => {
    const url = new URL(await storage.presignPut(ref, 12_345, 3600));
    expect(url.hostname).toBe('hk-transfers.s3.ap-east-1.amazonaws.com');
    expect(url.pathname).toBe('/t/abc/f1');
    expect(checksumParams(url)).toEqual([]);
    expect(signedHeaders(url)).toEqual(['content-length', 'host']);
    // a header, not a query parameter: the browser's request must carry exactly this length
    expect(url.searchParams.has('content-length')).toBe(false);
    expect(url.searchParams.get('X-Amz-Content-Sha256')).toBe('UNSIGNED-PAYLOAD');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^unit\/\d{8}\/ap-east-1\/s3\/aws4_request$/u);
  });

  it('a typed PUT (branding images) signs Content-Type and Content-Length', async () => {
    const url = new URL(await storage.presignTypedPut(ref, 'image/png', 2048, 600));
    expect(signedHeaders(url)).toEqual(['content-length', 'content-type', 'host']);
    expect(url.searchParams.has('content-type')).toBe(false);
    expect(checksumParams(url)).toEqual([]);
  });

  it('a multipart part carries its part number and upload id in the signed query, and signs its length', async () => {
    const url = new URL(await storage.presignPart(ref, 'up/1+2', 7, 5 * 1024 * 1024, 3600));
    expect(url.searchParams.get('partNumber')).toBe('7');
    expect(url.searchParams.get('uploadId')).toBe('up/1+2');
    // RFC 3986 in the query, as SigV4 canonicalises it
    expect(url.search).toContain('uploadId=up%2F1%2B2');
    expect(signedHeaders(url)).toEqual(['content-length', 'host']);
    expect(checksumParams(url)).toEqual([]);
  });

  it('with the SDK default checksum configuration the same URL would carry a CRC32 a browser cannot match', async () => {
    // What WHEN_REQUIRED prevents: the presigner signs an empty body's CRC32 into PUT URLs.
    const {
      requestChecksumCalculation: _c,
      responseChecksumValidation: _v,
      ...defaults
    } = s3ClientConfig({ region: 'ap-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    const url = new URL(
      await presign(new S3Client(defaults), new PutObjectCommand({ Bucket: 'b', Key: 'k', ContentLength: 10 }), 60),
    );
    expect(checksumParams(url).length).toBeGreaterThan(0);
  });
});

describe('presigned downloads', () => {
  it('a download names the file as an attachment (RFC 6266, RFC 3986-encoded in the signed query)', async () => {
    const name = 'Ünïcødé "quote" 100% (1).pdf';
    const url = new URL(await storage.presignDownload(ref, name, 300));
    const disposition = url.searchParams.get('response-content-disposition');
    expect(disposition).toBe(storage.attachmentDisposition(name));
    expect(disposition).toBe(
      `attachment; filename="_n_c_d_ _quote_ 100_ (1).pdf"; filename*=UTF-8''%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20%22quote%22%20100%25%20%281%29.pdf`,
    );
    expect(url.searchParams.get('response-content-type')).toBe('application/octet-stream');
    // no '+' for spaces and the RFC 3986 reserved characters encoded, as SigV4 signs them
    expect(url.search).not.toContain('+');
    expect(url.search).toContain('response-content-disposition=attachment%3B%20filename%3D%22');
    expect(url.search).not.toMatch(/[()'!*]/u);
    expect(signedHeaders(url)).toEqual(['host']);
  });

  it('an inline preview carries its type and the inline disposition', async () => {
    const url = new URL(await storage.presignInline(ref, 'image/jpeg', 'a b.jpg', 300));
    expect(url.searchParams.get('response-content-type')).toBe('image/jpeg');
    expect(url.searchParams.get('response-content-disposition')).toMatch(/^inline; filename="a b\.jpg"/u);
  });
});

describe('presign expiry and client configuration', () => {
  it('expires after 1 s to 7 days, nothing else', async () => {
    const client = createS3Client({ region: 'ap-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    const get = () => new GetObjectCommand({ Bucket: 'b', Key: 'k' });
    expect(new URL(await presign(client, get(), MAX_PRESIGN_SECONDS)).searchParams.get('X-Amz-Expires')).toBe('604800');
    for (const bad of [0, -1, 1.5, MAX_PRESIGN_SECONDS + 1])
      await expect(presign(client, get(), bad)).rejects.toThrow(RangeError);
  });

  it('computes checksums only where S3 requires one, and addresses the emulator by path', async () => {
    const local = createS3Client({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:4569',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    expect(await local.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await local.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    expect(local.config.forcePathStyle).toBe(true);
    const url = new URL(await presign(local, new GetObjectCommand({ Bucket: 'bucket-a', Key: 'x/y' }), 60));
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:4569/bucket-a/x/y');
    const aws = createS3Client({ region: 'eu-central-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    expect(aws.config.forcePathStyle).toBeFalsy();
  });
});
