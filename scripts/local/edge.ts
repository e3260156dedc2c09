/**
 * CloudFront's part in front of `/api`, played by the local app origins (the Vite dev server of
 * `npm start`, frontend/dev-server.ts, and the built-app server of the e2e tests,
 * frontend/app-server.ts). In AWS the browser cannot set CloudFront's viewer headers: CloudFront
 * writes them, and adds the secret origin header the functions check before trusting them
 * (functions/lib/http.ts clientAddressOf). Locally the app origin does the same, so per-client
 * limits hold on this machine too.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';
import { ORIGIN_VERIFY_HEADER } from '../../functions/routes';

/**
 * Where the viewer is: CloudFront looks it up, this machine cannot, so what the browser (a test)
 * says passes on. It feeds download statistics only, never a limit (docs/security.md).
 */
const LOCATION_HEADERS = new Set(['cloudfront-viewer-country', 'cloudfront-viewer-city']);

/** Headers only CloudFront may write: what a browser sent under these names is dropped. */
export function isEdgeHeader(name: string): boolean {
  const n = name.toLowerCase();
  return (n.startsWith('cloudfront-') && !LOCATION_HEADERS.has(n)) || n === ORIGIN_VERIFY_HEADER;
}

/** A fresh secret per local stack start (AWS keeps its own in Secrets Manager). */
export function newOriginSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** `ip:port` of the socket, as CloudFront-Viewer-Address gives it (IPv4-mapped addresses unwrapped). */
export function viewerAddressOf(req: Pick<IncomingMessage, 'socket'>): string {
  const ip = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `${ip}:${req.socket.remotePort ?? 0}`;
}

/** What CloudFront adds to an `/api` origin request: the viewer's real address and, when known, the secret. */
export function edgeHeaders(
  req: Pick<IncomingMessage, 'socket'>,
  originSecret: string | undefined,
): Record<string, string> {
  return {
    'cloudfront-viewer-address': viewerAddressOf(req),
    ...(originSecret ? { [ORIGIN_VERIFY_HEADER]: originSecret } : {}),
  };
}

/** The browser's headers without the ones only CloudFront writes, then CloudFront's own. */
export function forwardedHeaders(
  req: Pick<IncomingMessage, 'socket' | 'headers'>,
  originSecret: string | undefined,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !isEdgeHeader(name)) out[name] = value;
  return Object.assign(out, edgeHeaders(req, originSecret));
}

/** The part of an outgoing proxy request this needs (http.ClientRequest has it). */
interface ProxyRequest {
  getHeaderNames(): string[];
  removeHeader(name: string): void;
  setHeader(name: string, value: string): unknown;
}

/** The same on a proxy's outgoing request (http-proxy's `proxyReq` event, as Vite's `/api` proxy emits it). */
export function playCloudFront(
  proxyReq: ProxyRequest,
  req: Pick<IncomingMessage, 'socket'>,
  originSecret: string | undefined,
): void {
  for (const name of proxyReq.getHeaderNames()) if (isEdgeHeader(name)) proxyReq.removeHeader(name);
  for (const [name, value] of Object.entries(edgeHeaders(req, originSecret))) proxyReq.setHeader(name, value);
}
