import { startBuiltAppServer, type BuiltAppServer } from '../../frontend/app-server';
import { inject } from 'vitest';
import { serveLocalApp, startLocalApp, type LocalApp } from '../../scripts/local/app';
import { startLocalStack, type LocalStack } from '../../scripts/local/stack';
import { DEFAULT_REGION, REGION_IDS, type RegionId } from '../../functions/domain/regions';
import { ENV } from '../../functions/lib/env-names';
import { startFileStack } from './shared-stack';
import { servedCustomHost } from '../../functions/data/custom-domains';
import { ORIGIN_VERIFY_HEADER } from '../../functions/routes';

/**
 * The local gateway on a free port, with the HTTP API's own 30 s integration timeout (what AWS
 * refuses fails here too), in front of this file's own table, buckets, pool, inbox and
 * DNS server on the project's shared emulators (./shared-stack.ts). `ownStack` starts emulators
 * of the file's own instead, for the files that stop or watch one; so does a run without the
 * project's global setup.
 */
export async function startTestApp(
  appOrigin = 'http://127.0.0.1:5999',
  options: { ownStack?: boolean } = {},
): Promise<LocalApp> {
  const shared = options.ownStack ? undefined : inject('sharedEmulators');
  if (!shared)
    return startLocalApp({
      ports: 'free',
      appOrigins: [appOrigin],
      appOrigin,
      apiPort: 0,
    });
  // serveLocalApp stops the stack itself when its gateway cannot listen.
  return serveLocalApp(await startFileStack(shared, { appOrigins: [appOrigin], appOrigin }), {
    appOrigins: [appOrigin],
    apiPort: 0,
  });
}

/** The project's production build of the app (e2e global setup); undefined: build one here. */
export function builtWebDir(): string | undefined {
  return inject('webDist');
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
export function startTestWeb(
  port: number,
  app: Pick<LocalApp, 'apiOrigin' | 'stack' | 'originSecret'>,
): Promise<BuiltAppServer> {
  const distDir = builtWebDir();
  return startBuiltAppServer({
    port,
    apiOrigin: app.apiOrigin,
    storage: [new URL(app.stack.urls.s3).origin],
    customHost: servedCustomHost,
    originSecret: app.originSecret,
    ...(distDir ? { distDir } : {}),
  });
}

/**
 * The headers CloudFront would add for a client at `address` (its secret included), for tests
 * that call the gateway directly yet need clients told apart, as the app origin does locally.
 */
export function viaCloudFront(
  app: Pick<LocalApp, 'originSecret'>,
  address: string,
  port = 40123,
): Record<string, string> {
  return { 'cloudfront-viewer-address': `${address}:${port}`, [ORIGIN_VERIFY_HEADER]: app.originSecret };
}

/** The buckets of `region` in this stack's environment (each test file has its own). */
export function stackBuckets(
  stack: Pick<LocalApp['stack'], 'env'>,
  region: RegionId = DEFAULT_REGION,
): { bucket: string; anonBucket: string } {
  const all = JSON.parse(stack.env[ENV.regionBuckets]!) as Record<string, { bucket: string; anonBucket: string }>;
  const found = all[region];
  if (!found) throw new Error(`no buckets for region ${region} in this stack`);
  return { bucket: found.bucket, anonBucket: found.anonBucket };
}

/** Every bucket of this stack, the transfer and anonymous ones of each region. */
export function allStackBuckets(stack: Pick<LocalApp['stack'], 'env'>): string[] {
  return REGION_IDS.flatMap((r) => Object.values(stackBuckets(stack, r)));
}

/** The emulators without the gateway: this file's namespace on the shared ones, or its own. */
export async function startTestStack(appOrigin = 'http://127.0.0.1:5999'): Promise<LocalStack> {
  const shared = inject('sharedEmulators');
  return shared
    ? startFileStack(shared, { appOrigins: [appOrigin], appOrigin })
    : startLocalStack({ ports: 'free', appOrigins: [appOrigin], appOrigin });
}
