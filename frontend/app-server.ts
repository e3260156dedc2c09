import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createGzip } from 'node:zlib';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PRIVATE_PAGE_HEADERS, securityHeaders } from './csp';
import { isPrivatePath } from './src/app/seo-routes';
import { buildWeb } from './web-bundle';
import { spaRewrite } from './prerendered-pages';
import { hostGate, isLoopbackHost, localCustomHostHeaders, refuseHost, type CustomHostCheck } from './custom-hosts';
import { forwardedHeaders } from '../scripts/local/edge';

export interface BuiltAppServer {
  /** e.g. http://127.0.0.1:5173 (no trailing slash) */
  readonly url: string;
  /** the headers every answer carries, CSP included */
  readonly headers: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export interface BuiltAppOptions {
  readonly port: number;
  /** origin of the local gateway that serves `/api` */
  readonly apiOrigin: string;
  /** origins of the buckets (s3rver), for the CSP's connect-src and media-src */
  readonly storage: readonly string[];
  /** an existing `vite build` output; by default the app is built into a temporary directory */
  readonly distDir?: string;
  /** serves a custom host while this says it is verified, as its CloudFront tenant does (default: loopback only) */
  readonly customHost?: CustomHostCheck;
  /** the local stack's origin secret, added to `/api` requests as CloudFront adds its own */
  readonly originSecret?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.map': 'application/json',
};
/** What CloudFront compresses (`compress: true`) when the browser accepts gzip. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt', '.xml', '.map']);

/**
 * The shipped app as CloudFront serves it, for the e2e tests and the Lighthouse bench: the
 * `vite build` output (gzip when accepted), client
 * routes falling back to index.html, `/api` forwarded to the local gateway, and the response
 * headers policy of lib/web-stack.ts (the one CSP of frontend/csp.ts) on every answer, API
 * answers included. Only the storage origins differ from AWS (docs/decisions/, "One CSP").
 */
export async function startBuiltAppServer(options: BuiltAppOptions): Promise<BuiltAppServer> {
  let distDir = options.distDir;
  let temporary: string | undefined;
  if (!distDir) {
    temporary = mkdtempSync(path.join(tmpdir(), 'sendbridge-app-'));
    await buildWeb(temporary);
    distDir = temporary;
  }
  const root = path.resolve(distDir);
  const loopbackHeaders = securityHeaders({ storage: options.storage });
  const customHeaders = localCustomHostHeaders(loopbackHeaders);
  const api = new URL(options.apiOrigin);

  const sendFile = (req: IncomingMessage, res: ServerResponse, file: string, pathname: string) => {
    const hostHeaders = isLoopbackHost(req.headers.host) ? loopbackHeaders : customHeaders;
    // as CloudFront's behaviours for the private paths (lib/web-stack.ts)
    const headers = isPrivatePath(pathname) ? { ...hostHeaders, ...PRIVATE_PAGE_HEADERS } : hostHeaders;
    const ext = path.extname(file);
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(200, {
      ...headers,
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'cache-control': file.startsWith(path.join(root, 'assets') + path.sep)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(file);
    if (gzip) stream.pipe(createGzip()).pipe(res);
    else stream.pipe(res);
  };

  const rewrite = spaRewrite();
  const allows = hostGate(options.customHost);
  const server = createServer((req, res) => {
    allows(req.headers.host).then(
      (ok) => (ok ? serve(req, res) : refuseHost(res)),
      () => refuseHost(res),
    );
  });
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const headers = isLoopbackHost(req.headers.host) ? loopbackHeaders : customHeaders;
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      // As CloudFront: the viewer headers are written here, never taken from the browser.
      const upstream = httpRequest(
        {
          host: api.hostname,
          port: api.port,
          method: req.method,
          path: req.url,
          headers: {
            ...forwardedHeaders(req, options.originSecret),
            'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1',
          },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...headers });
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502, headers);
        res.end();
      });
      req.pipe(upstream);
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400, headers);
      return void res.end();
    }
    // CloudFront's SPA rewrite: a last segment without a dot is a client-side route.
    const candidate = path.join(root, path.normalize(decoded).replace(/^([/\\])+/, ''));
    const inside = candidate.startsWith(root + path.sep);
    if (inside && existsSync(candidate) && statSync(candidate).isFile())
      return sendFile(req, res, candidate, url.pathname);
    const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    if (last.includes('.')) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Not found');
    }
    // CloudFront's viewer-request function itself: index.html, or a prerendered page in the visitor's language
    const lng = url.searchParams.get('lng');
    const acceptLanguage = req.headers['accept-language'];
    const { uri } = rewrite({
      request: {
        uri: url.pathname,
        ...(lng !== null ? { querystring: { lng: { value: lng } } } : {}),
        ...(acceptLanguage ? { headers: { 'accept-language': { value: acceptLanguage } } } : {}),
      },
    });
    const page = path.join(root, uri);
    sendFile(
      req,
      res,
      page.startsWith(root + path.sep) && existsSync(page) ? page : path.join(root, 'index.html'),
      url.pathname,
    );
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    headers: loopbackHeaders,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}
