import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportError, fetchPut, isAuthFailure, parseS3Error } from '../../../frontend/src/shared/upload/transport';

const expired =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><RequestId>R1</RequestId></Error>';

describe('S3 error answers', () => {
  it('reads the code and message of an XML error', () => {
    expect(parseS3Error(expired)).toEqual({ code: 'AccessDenied', message: 'Request has expired' });
    expect(parseS3Error('')).toEqual({});
  });

  it('treats 403 and the 400 auth codes as a spent URL, other failures not', () => {
    expect(isAuthFailure(403, '')).toBe(true);
    expect(isAuthFailure(400, '<Error><Code>ExpiredToken</Code></Error>')).toBe(true);
    expect(isAuthFailure(400, '<Error><Code>AuthorizationQueryParametersError</Code></Error>')).toBe(true);
    expect(isAuthFailure(400, '<Error><Code>EntityTooSmall</Code></Error>')).toBe(false);
    expect(isAuthFailure(500, expired)).toBe(false);
    expect(isAuthFailure(503, '')).toBe(false);
  });
});

describe('fetch PUT', () => {
  let server: http.Server;
  let origin = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/expired') {
          res.writeHead(403, { 'x-amz-request-id': 'REQ403' });
          res.end(expired);
        } else if (req.url === '/reset') {
          req.socket.destroy();
        } else {
          res.writeHead(200, { etag: '"abc"', 'x-amz-request-id': 'REQ200' });
          res.end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const put = fetchPut(fetch);

  it('returns the ETag and request id of a success', async () => {
    const r = await put(`${origin}/ok`, new Blob(['hello']), new AbortController().signal);
    expect(r).toEqual({ status: 200, etag: '"abc"', requestId: 'REQ200', errorBody: '' });
  });

  it('returns the error body of a refusal', async () => {
    const r = await put(`${origin}/expired`, new Blob(['hello']), new AbortController().signal);
    expect(r.status).toBe(403);
    expect(r.requestId).toBe('REQ403');
    expect(r.errorBody).toBe(expired);
  });

  it('throws TransportError when no answer arrives', async () => {
    await expect(put(`${origin}/reset`, new Blob(['hello']), new AbortController().signal)).rejects.toBeInstanceOf(
      TransportError,
    );
  });

  it('throws the abort reason, not a TransportError, when aborted', async () => {
    const reason = new Error('stop');
    await expect(put(`${origin}/ok`, new Blob(['hello']), AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
