/**
 * A local HTTP proxy in front of the gateway and s3rver, for download clients (the CLI) under
 * test: `/api/*` goes to the gateway, with every s3rver URL in its answers rewritten to pass
 * through `/s3/*` here, where faults are injected into the objects' bytes: the connection cut
 * (or held silent) once half way through a GET, or one byte changed. Every S3 request is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Seen {
  readonly path: string;
  readonly range?: string;
  readonly ifRange?: string;
  readonly status: number;
}

export interface DownloadProxy {
  readonly origin: string;
  readonly seen: S3Seen[];
  /** the next GET of a path containing `match` and carrying no Range is cut after `fraction` of its body */
  cutOnce(match: string, fraction?: number): void;
  /** the same, but the connection stays open and silent after that (a stalled download) */
  holdOnce(match: string, fraction?: number): void;
  /** the next GET of a path containing `match` is answered 403 "Request has expired", as S3 answers an expired presigned URL */
  expireOnce(match: string): void;
  /** the paths of the API calls made through this proxy, in order */
  readonly apiCalls: string[];
  /** the URL of `s3Url` through this proxy */
  viaProxy(s3Url: string): string;
  /** every GET of a path containing `match` has the byte at `offset` of the object changed */
  corrupt(match: string, offset: number): void;
  close(): Promise<void>;
}

export async function startDownloadProxy(apiOrigin: string, s3Origin: string): Promise<DownloadProxy> {
  const seen: S3Seen[] = [];
  let cut: { match: string; hold: boolean; fraction: number } | undefined;
  const corruptions: { match: string; offset: number }[] = [];
  const apiCalls: string[] = [];
  let expire: string | undefined;
  let origin = '';

  const server = http.createServer((req, res) => {
    const isS3 = req.url!.startsWith('/s3/');
    const target = new URL(isS3 ? req.url!.slice(3) : req.url!, isS3 ? s3Origin : apiOrigin);
    if (!isS3) apiCalls.push(target.pathname);
    if (isS3 && req.method === 'GET' && expire !== undefined && target.pathname.includes(expire)) {
      expire = undefined;
      seen.push({ path: target.pathname, status: 403 });
      const xml =
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
      req.resume();
      res.writeHead(403, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(xml)) });
      res.end(xml);
      return;
    }
    const headers = { ...req.headers, host: target.host };
    const upstream = http.request(target, { method: req.method, headers }, (up) => {
      if (!isS3) {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const body = Buffer.from(Buffer.concat(chunks).toString('utf8').split(s3Origin).join(`${origin}/s3`));
          const out = { ...up.headers, 'content-length': String(body.length) };
          delete out['transfer-encoding'];
          res.writeHead(up.statusCode!, out);
          res.end(body);
        });
        return;
      }
      const range = req.headers.range;
      seen.push({
        path: target.pathname,
        ...(range ? { range } : {}),
        ...(req.headers['if-range'] ? { ifRange: String(req.headers['if-range']) } : {}),
        status: up.statusCode!,
      });
      res.writeHead(up.statusCode!, up.headers);
      const total = Number(up.headers['content-length'] ?? 0);
      const cutting = req.method === 'GET' && !range && cut !== undefined && target.pathname.includes(cut.match);
      const hold = cutting && cut!.hold;
      const stopAt = cutting ? Math.floor(total * cut!.fraction) : total;
      if (cutting) cut = undefined;
      // where this answer's body starts in the object (a 206's Content-Range)
      const start = Number(/^bytes (\d+)-/u.exec(String(up.headers['content-range'] ?? ''))?.[1] ?? 0);
      const flips = corruptions.filter((c) => target.pathname.includes(c.match));
      let at = 0;
      let stopped = false;
      up.on('data', (chunk: Buffer) => {
        if (stopped) return;
        let data = chunk;
        for (const f of flips) {
          const i = f.offset - start - at;
          if (i >= 0 && i < data.length) {
            data = Buffer.from(data);
            data[i] = data[i]! ^ 0xff;
          }
        }
        if (cutting && at + data.length > stopAt) {
          res.write(data.subarray(0, Math.max(0, stopAt - at)), () => {
            if (!hold) res.socket?.destroy();
          });
          up.destroy();
          stopped = true;
          return;
        }
        at += data.length;
        res.write(data);
      });
      up.on('end', () => {
        if (!stopped) res.end();
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    apiCalls,
    expireOnce: (match) => {
      expire = match;
    },
    cutOnce: (match, fraction = 0.5) => {
      cut = { match, hold: false, fraction };
    },
    holdOnce: (match, fraction = 0.5) => {
      cut = { match, hold: true, fraction };
    },
    viaProxy: (s3Url) => s3Url.split(s3Origin).join(`${origin}/s3`),
    corrupt: (match, offset) => {
      corruptions.push({ match, offset });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
