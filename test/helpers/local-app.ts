import { startBuiltAppServer, type BuiltAppServer } from '../../frontend/app-server';
import { startLocalApp, type LocalApp } from '../../scripts/local/app';
import { servedCustomHost } from '../../functions/data/custom-domains';
import { ORIGIN_VERIFY_HEADER } from '../../functions/routes';

/** Starts the emulators and the local gateway on free ports, with ephemeral data. */
export async function startTestApp(appOrigin = 'http://127.0.0.1:5999'): Promise<LocalApp> {
  return startLocalApp({ ports: 'free', appOrigins: [appOrigin], appOrigin, apiPort: 0 });
}

export async function api(app: LocalApp, path: string, init: RequestInit = {}) {
  const res = await fetch(`${app.apiOrigin}/api${path}`, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Record<string, any> };
}

/**
 * The shipped app (`vite build`) on `port`, as CloudFront serves it: the one CSP of
 * frontend/csp.ts and the other security headers, `/api` forwarded to the app's gateway, the
 * buckets at the app's s3rver (docs/decisions/, "One CSP").
 */
export function startTestWeb(port: number, app: Pick<LocalApp, 'apiOrigin' | 'stack' | 'originSecret'>): Promise<BuiltAppServer> {
  return startBuiltAppServer({ port, apiOrigin: app.apiOrigin, storage: [new URL(app.stack.urls.s3).origin], customHost: servedCustomHost, originSecret: app.originSecret });
}

/**
 * The headers CloudFront would add for a client at `address` (its secret included), for tests
 * that call the gateway directly yet need clients told apart, as the app origin does locally.
 */
export function viaCloudFront(app: Pick<LocalApp, 'originSecret'>, address: string, port = 40123): Record<string, string> {
  return { 'cloudfront-viewer-address': `${address}:${port}`, [ORIGIN_VERIFY_HEADER]: app.originSecret };
}
