/**
 * SigV4 of the functions' AWS layer (aws4fetch underneath) against the AWS SDK's own signer
 * (@smithy/signature-v4) on the same request at the same instant: header signatures of the JSON
 * protocols and of S3, and the S3 presigned URLs against @aws-sdk/s3-request-presigner (what
 * functions/ used before): query, signed headers, signature. None of the
 * local emulators verify SigV4 signatures (s3rver accepts any v4 signature), so this is the check.
 */
import { createHash, createHmac } from 'node:crypto';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signRequest, type AwsCredentials } from '../../../functions/lib/aws/core';
import { createS3, encodeKey } from '../../../functions/lib/aws/s3';

const NOW = new Date('2026-11-25T10:20:30.000Z');
const credentials: AwsCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session/token+=' };

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: SourceData) => (typeof d === 'string' ? d : d instanceof ArrayBuffer ? new Uint8Array(d) : new Uint8Array(d.buffer, d.byteOffset, d.byteLength));

/** node:crypto as the SDK signer's hash. */
class Sha256 {
  private readonly h;
  constructor(secret?: SourceData) {
    this.h = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: SourceData) {
    this.h.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
}

const sdkSigner = (service: string, region: string) => new SignatureV4({ service, region, credentials, sha256: Sha256, uriEscapePath: service !== 's3', applyChecksum: service === 's3' });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

function query(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

describe('header signatures', () => {
  it('signs a DynamoDB JSON request as the SDK does', async () => {
    const body = JSON.stringify({ TableName: 't', Key: { pk: { S: 'USER#ü ß' } } });
    const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.GetItem' };
    const ours = await signRequest({ service: 'dynamodb', region: 'ap-east-1', method: 'POST', url: 'https://dynamodb.ap-east-1.amazonaws.com/', headers, body }, credentials);

    const sdk = await sdkSigner('dynamodb', 'ap-east-1').sign(
      { method: 'POST', protocol: 'https:', hostname: 'dynamodb.ap-east-1.amazonaws.com', path: '/', query: {}, headers: { ...headers, host: 'dynamodb.ap-east-1.amazonaws.com' }, body },
      { signingDate: NOW, unsignableHeaders: new Set(['content-type']) },
    );
    expect(ours.headers.get('x-amz-date')).toBe(sdk.headers['x-amz-date']);
    expect(ours.headers.get('x-amz-security-token')).toBe('session/token+=');
    expect(ours.headers.get('authorization')).toBe(sdk.headers.authorization);
  });

  it('signs an S3 request with an encoded key and a query as the SDK does (UNSIGNED-PAYLOAD)', async () => {
    const key = "t/Ab3dE5g/it's a (file)*!+ü.txt";
    const url = `https://hk-transfers.s3.ap-east-1.amazonaws.com/${encodeKey(key)}?partNumber=3&uploadId=a%2Bb%2Fc%3D`;
    const ours = await signRequest({ service: 's3', region: 'ap-east-1', method: 'PUT', url, headers: { 'x-amz-copy-source': 'b/k%20x', 'x-amz-copy-source-range': 'bytes=0-9' } }, credentials);

    const sdk = await sdkSigner('s3', 'ap-east-1').sign(
      {
        method: 'PUT',
        protocol: 'https:',
        hostname: 'hk-transfers.s3.ap-east-1.amazonaws.com',
        path: `/${encodeKey(key)}`,
        query: { partNumber: '3', uploadId: 'a+b/c=' },
        headers: { host: 'hk-transfers.s3.ap-east-1.amazonaws.com', 'x-amz-copy-source': 'b/k%20x', 'x-amz-copy-source-range': 'bytes=0-9', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      { signingDate: NOW },
    );
    expect(ours.headers.get('x-amz-content-sha256')).toBe('UNSIGNED-PAYLOAD');
    expect(ours.headers.get('authorization')).toBe(sdk.headers.authorization);
  });
});

describe('presigned URLs', () => {
  const s3 = createS3({ region: 'eu-central-1', credentials });

  /** @aws-sdk/s3-request-presigner's query for the same method, path, query and signed headers. */
  async function sdkPresign(method: string, url: URL, headers: Record<string, string>, expiresIn: number) {
    const q = query(url);
    for (const k of Object.keys(q)) if (k.startsWith('X-Amz-')) delete q[k];
    const presigner = new S3RequestPresigner({ service: 's3', region: 'eu-central-1', credentials, sha256: Sha256 });
    const presigned = await presigner.presign(
      { method, protocol: 'https:', hostname: url.hostname, path: url.pathname, query: q, headers: { host: url.hostname, ...headers } },
      { signingDate: NOW, expiresIn, unhoistableHeaders: new Set(Object.keys(headers)), signableHeaders: new Set(Object.keys(headers)) },
    );
    return presigned.query as Record<string, string>;
  }

  it('PUT of a whole object signs content-length (the size is pinned) with the session token in the query', async () => {
    const url = new URL(await s3.presign('PUT', { Bucket: 'fra-transfers', Key: 't/Ab3dE5g/fileAAAAAA', headers: { 'content-length': 1234 } }, 900));
    expect(url.origin + url.pathname).toBe('https://fra-transfers.s3.eu-central-1.amazonaws.com/t/Ab3dE5g/fileAAAAAA');
    const q = query(url);
    expect(q).toMatchObject({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      'X-Amz-Credential': 'AKIDEXAMPLE/20261125/eu-central-1/s3/aws4_request',
      'X-Amz-Date': '20261125T102030Z',
      'X-Amz-Expires': '900',
      'X-Amz-SignedHeaders': 'content-length;host',
      'X-Amz-Security-Token': 'session/token+=',
    });
    const sdk = await sdkPresign('PUT', url, { 'content-length': '1234' }, 900);
    expect(sdk['X-Amz-SignedHeaders']).toBe('content-length;host');
    expect(q['X-Amz-Signature']).toBe(sdk['X-Amz-Signature']);
    // the same query as the SDK's, parameter for parameter
    expect(q).toEqual(sdk);
  });

  it('PUT of a part carries partNumber and uploadId, signed', async () => {
    const url = new URL(await s3.presign('PUT', { Bucket: 'fra-transfers', Key: 'k', query: { partNumber: 7, uploadId: 'up+id/=' }, headers: { 'content-length': 5 } }, 3600));
    expect(url.search).toContain('partNumber=7&uploadId=up%2Bid%2F%3D');
    const sdk = await sdkPresign('PUT', url, { 'content-length': '5' }, 3600);
    expect(query(url)['X-Amz-Signature']).toBe(sdk['X-Amz-Signature']);
  });

  it('a typed PUT signs content-type and content-length', async () => {
    const url = new URL(await s3.presign('PUT', { Bucket: 'fra-transfers', Key: 'u/pic', headers: { 'content-type': 'image/png', 'content-length': 99 } }, 300));
    expect(query(url)['X-Amz-SignedHeaders']).toBe('content-length;content-type;host');
    const sdk = await sdkPresign('PUT', url, { 'content-type': 'image/png', 'content-length': '99' }, 300);
    expect(query(url)['X-Amz-Signature']).toBe(sdk['X-Amz-Signature']);
  });

  it('GET with a hostile file name in response-content-disposition: RFC 3986 in the URL (%20, never +), same signature', async () => {
    const disposition = `attachment; filename="a_b _c.txt"; filename*=UTF-8''a%22b%20%2B%0A%C3%BC.txt`;
    const raw = await s3.presign('GET', { Bucket: 'fra-transfers', Key: 't/x/f', query: { 'response-content-disposition': disposition, 'response-content-type': 'application/octet-stream' } }, 60);
    expect(raw).not.toContain('+');
    expect(raw).toContain('response-content-disposition=attachment%3B%20filename%3D%22a_b%20_c.txt%22%3B%20filename%2A%3DUTF-8%27%27a%2522b%2520%252B%250A%25C3%25BC.txt');
    const url = new URL(raw);
    expect(url.searchParams.get('response-content-disposition')).toBe(disposition);
    expect(query(url)['X-Amz-SignedHeaders']).toBe('host');
    const sdk = await sdkPresign('GET', url, {}, 60);
    expect(query(url)['X-Amz-Signature']).toBe(sdk['X-Amz-Signature']);
  });

  it('HEAD (the speed test), path style on a configured endpoint', async () => {
    const local = createS3({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4569/', credentials });
    const url = new URL(await local.presign('HEAD', { Bucket: 'local-transfers', Key: 'speedtest/128kb.bin' }, 300));
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:4569/local-transfers/speedtest/128kb.bin');
    expect(query(url)['X-Amz-Credential']).toBe('AKIDEXAMPLE/20261125/us-east-1/s3/aws4_request');
  });

  it('refuses expiries S3 would refuse', async () => {
    await expect(s3.presign('GET', { Bucket: 'b-b', Key: 'k' }, 7 * 24 * 3600 + 1)).rejects.toThrow(RangeError);
    await expect(s3.presign('GET', { Bucket: 'b-b', Key: 'k' }, 0)).rejects.toThrow(RangeError);
  });
});

describe('object keys in URLs', () => {
  it('encodes each segment (RFC 3986), keeps /, and refuses dot segments a URL parser would resolve', () => {
    expect(encodeKey("a b/c+d/e'f(g)*!h/ü")).toBe('a%20b/c%2Bd/e%27f%28g%29%2A%21h/%C3%BC');
    expect(encodeKey('a//b')).toBe('a//b');
    expect(() => encodeKey('t/../x')).toThrow();
    expect(() => encodeKey('./x')).toThrow();
  });
});
