/**
 * Which Host a local web server answers: its own loopback names, and a custom domain
 * only while it is verified and has its (local) CDN tenant, as CloudFront serves a tenant's
 * domain and nothing else. Any other Host is refused, so DNS rebinding cannot reach the app.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers whether a custom host is served now (functions/data/custom-domains.ts servedCustomHost). */
export type CustomHostCheck = (host: string) => Promise<boolean>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** A served host is asked about again after this; a refused one at once (it may verify any second). */
const SERVED_TTL_MS = 5_000;

export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** A gate for one server: `allows(req)` is true for loopback and for a served custom host. */
export function hostGate(check: CustomHostCheck | undefined) {
  const served = new Map<string, number>();
  return async function allows(hostHeader: string | undefined): Promise<boolean> {
    const host = hostnameOf(hostHeader);
    if (!host) return false;
    if (LOOPBACK.has(host)) return true;
    if (!check) return false;
    const until = served.get(host);
    if (until !== undefined && until > Date.now()) return true;
    let ok = false;
    try {
      ok = await check(host);
    } catch {
      ok = false;
    }
    if (ok) served.set(host, Date.now() + SERVED_TTL_MS);
    else served.delete(host);
    return ok;
  };
}

export function refuseHost(res: ServerResponse): void {
  res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end('This host is not served here.');
}

/** Connect-style middleware of the gate (the Vite dev server). */
export function hostMiddleware(check: CustomHostCheck | undefined) {
  const allows = hostGate(check);
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    allows(req.headers.host).then(
      (ok) => (ok ? next() : refuseHost(res)),
      () => refuseHost(res),
    );
  };
}

/**
 * Locally a custom host is plain http on the web server's port (in AWS its tenant is https):
 * the shipped CSP's `upgrade-insecure-requests` would send its scripts to https, which browsers
 * skip only for loopback names. The local servers drop that one directive on a custom host.
 */
export function localCustomHostHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const csp = headers['content-security-policy'];
  if (!csp) return { ...headers };
  return {
    ...headers,
    'content-security-policy': csp
      .split('; ')
      .filter((d) => d !== 'upgrade-insecure-requests')
      .join('; '),
  };
}

export function isLoopbackHost(hostHeader: string | undefined): boolean {
  const host = hostnameOf(hostHeader);
  return host !== undefined && LOOPBACK.has(host);
}
