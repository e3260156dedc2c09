import { randomBytes } from 'node:crypto';
import { createServer, type Plugin } from 'vite';
import { contentSecurityPolicy, PRIVATE_PAGE_HEADERS, securityHeaders } from './csp';
import { isPrivatePath } from './src/app/seo-routes';
import { webConfig } from './vite.config';
import { hostMiddleware, isLoopbackHost, localCustomHostHeaders, type CustomHostCheck } from './custom-hosts';

export interface WebDevServer {
  /** e.g. http://127.0.0.1:5173 (no trailing slash) */
  readonly url: string;
  /** the Content-Security-Policy every answer carries */
  readonly contentSecurityPolicy: string;
  close(): Promise<void>;
}

export interface WebDevServerOptions {
  readonly port: number;
  readonly apiOrigin: string;
  /** Origins of the buckets (the running s3rver) for the CSP. */
  readonly storage: readonly string[];
  /** serves a custom host while this says it is verified (default: loopback only) */
  readonly customHost?: CustomHostCheck;
  /** the local stack's origin secret, added to `/api` requests as CloudFront adds its own */
  readonly originSecret?: string;
}

/** Vite's static allowedHosts replaced by the gate of frontend/custom-hosts.ts (verified custom hosts only). */
function customHosts(check: CustomHostCheck | undefined): Plugin {
  return {
    name: 'sendbridge:custom-hosts',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(hostMiddleware(check));
    },
  };
}

/**
 * The app's CSP (frontend/csp.ts) on every answer of the dev server. Vite's dev mode injects
 * one inline module script (React refresh's preamble); `html.cspNonce` puts this server's
 * nonce on it, and the policy allows that nonce and nothing else inline
 * (docs/decisions/, "One CSP").
 */
function cspHeaders(headers: Record<string, string>): Plugin {
  return {
    name: 'sendbridge:csp-headers',
    apply: 'serve',
    configureServer(server) {
      const onCustomHost = localCustomHostHeaders(headers);
      server.middlewares.use((req, res, next) => {
        for (const [name, value] of Object.entries(isLoopbackHost(req.headers.host) ? headers : onCustomHost))
          res.setHeader(name, value);
        // the private pages' headers, as CloudFront and the built-app server send them
        if (isPrivatePath((req.url ?? '/').split('?')[0] ?? '/'))
          for (const [name, value] of Object.entries(PRIVATE_PAGE_HEADERS)) res.setHeader(name, value);
        next();
      });
    },
  };
}

/** Starts the Vite dev server for the app; used by scripts/dev.ts (`npm start`) and one e2e check. */
export async function startWebDevServer({
  port,
  apiOrigin,
  storage,
  customHost,
  originSecret,
}: WebDevServerOptions): Promise<WebDevServer> {
  const nonce = randomBytes(16).toString('base64');
  const csp = { storage, scriptNonce: nonce };
  const config = webConfig({ port, apiOrigin, ...(originSecret ? { originSecret } : {}) });
  const server = await createServer({
    ...config,
    plugins: [customHosts(customHost), ...(config.plugins ?? []), cspHeaders(securityHeaders(csp))],
    // The gate above decides the Host (a verified custom domain's too); Vite's own list is static.
    server: { ...config.server, allowedHosts: true },
    html: { cspNonce: nonce },
    configFile: false,
    clearScreen: false,
    logLevel: 'warn',
  });
  await server.listen();
  const url = `http://127.0.0.1:${port}`;
  return { url, contentSecurityPolicy: contentSecurityPolicy(csp), close: () => server.close() };
}
