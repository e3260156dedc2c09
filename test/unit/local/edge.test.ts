import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { edgeHeaders, forwardedHeaders, isEdgeHeader, playCloudFront } from '../../../scripts/local/edge';

const socket = (remoteAddress: string, remotePort: number) =>
  ({ socket: { remoteAddress, remotePort } }) as unknown as http.IncomingMessage;

describe('the local app origin plays CloudFront in front of /api', () => {
  it("knows CloudFront's headers, whatever their case", () => {
    for (const name of [
      'CloudFront-Viewer-Address',
      'CLOUDFRONT-IS-MOBILE-VIEWER',
      'CloudFront-Viewer-TLS',
      'X-Origin-Verify',
    ])
      expect(isEdgeHeader(name), name).toBe(true);
    for (const name of ['authorization', 'x-forwarded-for', 'cookie', 'x-cloudfront-ish'])
      expect(isEdgeHeader(name), name).toBe(false);
    // no geo lookup here: the location a test gives passes on (statistics only)
    for (const name of ['CloudFront-Viewer-Country', 'cloudfront-viewer-city'])
      expect(isEdgeHeader(name), name).toBe(false);
  });

  it('writes the viewer address of the real socket (IPv4-mapped unwrapped) and the secret', () => {
    expect(edgeHeaders(socket('::ffff:127.0.0.1', 50123), 's')).toEqual({
      'cloudfront-viewer-address': '127.0.0.1:50123',
      'x-origin-verify': 's',
    });
    expect(edgeHeaders(socket('::1', 443), undefined)).toEqual({ 'cloudfront-viewer-address': '::1:443' });
  });

  it("drops what the browser sent under CloudFront's names and keeps everything else", () => {
    const req = Object.assign(socket('127.0.0.1', 40000), {
      headers: {
        'cloudfront-viewer-address': '203.0.113.9:1',
        'cloudfront-is-desktop-viewer': 'true',
        'cloudfront-viewer-country': 'DE',
        'x-origin-verify': 'guess',
        authorization: 'Bearer t',
        cookie: 'rt=1',
      },
    }) as http.IncomingMessage;
    const kept = { authorization: 'Bearer t', cookie: 'rt=1', 'cloudfront-viewer-country': 'DE' };
    expect(forwardedHeaders(req, 'secret')).toEqual({
      ...kept,
      'cloudfront-viewer-address': '127.0.0.1:40000',
      'x-origin-verify': 'secret',
    });
    // without a secret the forged values are still gone, and the functions trust no viewer address
    expect(forwardedHeaders(req, undefined)).toEqual({ ...kept, 'cloudfront-viewer-address': '127.0.0.1:40000' });
  });

  describe("on a proxy's outgoing request", () => {
    let server: http.Server | undefined;
    afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

    it('what reaches the upstream carries only the headers written here', async () => {
      let seen: http.IncomingHttpHeaders | undefined;
      server = http.createServer((req, res) => {
        seen = req.headers;
        res.end();
      });
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const out = http.request(
          {
            host: '127.0.0.1',
            port,
            headers: {
              'CloudFront-Viewer-Address': '198.51.100.7:9',
              'x-origin-verify': 'guess',
              accept: 'application/json',
            },
          },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        out.on('error', reject);
        playCloudFront(out, socket('127.0.0.1', 61000), 'secret');
        out.end();
      });
      expect(seen).toMatchObject({
        'cloudfront-viewer-address': '127.0.0.1:61000',
        'x-origin-verify': 'secret',
        accept: 'application/json',
      });
    });
  });
});
