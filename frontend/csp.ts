/**
 * The app's Content-Security-Policy, in one place for every server of the app: CloudFront's
 * response headers policy (lib/web-stack.ts), the built-app server of the e2e tests
 * (frontend/app-server.ts) and the Vite dev server of `npm start` (frontend/dev-server.ts).
 * No inline script and no 'unsafe-eval' anywhere (docs/decisions/, "One CSP"); 'wasm-unsafe-eval'
 * lets WebAssembly compile (the end-to-end encryption's Argon2id), and nothing else.
 *
 * A React SPA that talks to its own origin (/api), PUTs and GETs straight to the storage
 * buckets and embeds Stripe Checkout. Only the storage origins differ between AWS (the
 * regional S3 endpoints, *.amazonaws.com) and this machine (s3rver on loopback).
 */

/** Where the browser reaches the buckets in AWS (presigned URLs name regional S3 hosts). */
export const AWS_STORAGE_SOURCES = ['https://*.amazonaws.com'] as const;

export interface CspOptions {
  /** origins of the buckets the browser uploads to and downloads from */
  readonly storage: readonly string[];
  /**
   * Dev server only: the nonce Vite puts on the inline scripts it injects for React refresh
   * (`html.cspNonce`). The built app needs none.
   */
  readonly scriptNonce?: string;
}

export function contentSecurityPolicy({ storage, scriptNonce }: CspOptions): string {
  const s = storage.join(' ');
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval' compiles WebAssembly only (hash-wasm's Argon2id for encrypted sends), never JS from strings
    `script-src 'self' 'wasm-unsafe-eval'${scriptNonce ? ` 'nonce-${scriptNonce}'` : ''} https://js.stripe.com`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https: ${s}`,
    "font-src 'self' data:",
    `media-src 'self' blob: ${s}`,
    // blob: the text viewer reads a decrypted text of an end-to-end encrypted transfer (a blob: made by this page)
    `connect-src 'self' blob: ${s} https://api.stripe.com`,
    // a PDF preview is a presigned GET of the bucket (served as application/pdf) in the viewer's frame,
    // or, for an end-to-end encrypted transfer, a blob: of the decrypted PDF; 'self' is the hidden
    // frame whose download the e2e download worker answers (public/e2e-download-sw.js)
    `frame-src 'self' blob: ${s} https://js.stripe.com https://checkout.stripe.com`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    'upgrade-insecure-requests',
  ].join('; ');
}

/** The policy CloudFront sends with the app and the API. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy({ storage: AWS_STORAGE_SOURCES });

/** Voice memos and recorded videos need the microphone and camera (spec §2). */
export const PERMISSIONS_POLICY = 'camera=(self), microphone=(self), geolocation=()';

/**
 * The headers of CloudFront's response headers policy as a local server sends them (HSTS left
 * out: it means nothing on http://127.0.0.1 and would pin the address to https).
 */
export function securityHeaders(options: CspOptions): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(options),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS_POLICY,
  };
}

/**
 * What the private pages (download, request, invite, extension, dashboard pages and the
 * reset link: `isPrivatePath` in src/app/seo-routes.ts) get on top of the headers above, from
 * CloudFront and the local servers alike: kept out of search engines, and their address (a
 * transfer id, a recipient id, a token) never sent to another site as a Referer.
 */
export const PRIVATE_PAGE_HEADERS = {
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
} as const;
