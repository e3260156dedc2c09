/**
 * THE route table (data only). Read by `lib/` (one HTTP API route per entry, served by the
 * Lambda function of the route's group, see `FUNCTION_GROUPS`) and by the local gateway in
 * `scripts/local/gateway/` (the same grouping and dispatcher). Never import handlers from here.
 *
 * `path` is relative to the API prefix (`/api`): CloudFront sends `/api/*` to the HTTP API,
 * whose routes are `/api` + path; the local gateway serves the same paths.
 */

/** What a handler may touch; the CDK construct turns this into IAM grants and env. */
export type Access =
  | 'table:read'
  | 'table:write'
  | 'buckets:read'
  | 'buckets:write'
  | 'mail:send'
  | 'mail:read'
  | 'userpool:read'
  | 'userpool:admin'
  /** start the async jobs named in the route's `invokes` (Lambda InvokeFunction, JOB_FUNCTIONS env) */
  | 'jobs:invoke';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  readonly method: HttpMethod;
  /** e.g. `/health`, `/transfers/{id}`, `/files/{proxy+}` */
  readonly path: string;
  /** module under `functions/`, without extension; it must export `handler` */
  readonly handler: string;
  /** `jwt`: Cognito access token required (HTTP API JWT authorizer / local gateway) */
  readonly auth: 'none' | 'jwt';
  readonly access: readonly Access[];
  /** Lambda timeout in seconds (default 10; API Gateway caps integrations at 30) */
  readonly timeoutSeconds?: number;
  readonly memoryMb?: number;
  /** with access 'jobs:invoke': the jobs this route may start */
  readonly invokes?: readonly string[];
}

export interface JobDef {
  readonly name: string;
  readonly handler: string;
  /**
   * EventBridge rate expression; the local gateway runs the job on the same period. Jobs
   * without a schedule are started on demand by routes (async invoke, see `invokes`).
   */
  readonly schedule?: `rate(${number} ${'minute' | 'minutes' | 'hour' | 'hours'})`;
  readonly access: readonly Access[];
  readonly timeoutSeconds?: number;
  readonly memoryMb?: number;
}

export const API_PREFIX = '/api';

/**
 * The HTTP API's Lambda functions: each serves every route whose handler lives in one of its
 * directories (`http/<dir>/<name>`) and dispatches by route key (functions/lib/dispatch.ts).
 * Its IAM grants are the union of its routes' `access`; a directory belongs to exactly one
 * group. Why these groups and not one function per route: docs/decisions.md ("Grouped functions").
 */
export const FUNCTION_GROUPS = {
  /** health and the caller's claims */
  system: ['system'],
  /** registration, sign-in, sessions, password reset, guest sender codes */
  auth: ['auth', 'verify'],
  /** the signed-in user's profile, pictures, contacts, storage */
  me: ['me'],
  /** creating and uploading transfers */
  transfers: ['transfers'],
  /** the download page, files, ZIP, extensions */
  downloads: ['downloads'],
} as const satisfies Record<string, readonly string[]>;

export type FunctionGroup = keyof typeof FUNCTION_GROUPS;

export const routes: readonly RouteDef[] = [
  {
    method: 'GET',
    path: '/health',
    handler: 'http/system/health',
    auth: 'none',
    access: ['table:read', 'table:write', 'buckets:read', 'userpool:read', 'mail:read'],
  },
  {
    method: 'GET',
    path: '/me/claims',
    handler: 'http/system/whoami',
    auth: 'jwt',
    access: [],
  },

  // Accounts and sessions (spec §4, §7; architecture §6)
  { method: 'POST', path: '/newsignupverify', handler: 'http/auth/signup-start', auth: 'none', access: ['table:read', 'table:write', 'mail:send'] },
  { method: 'POST', path: '/newsignupverify/check', handler: 'http/auth/signup-check', auth: 'none', access: ['table:read', 'table:write'] },
  { method: 'POST', path: '/signup2', handler: 'http/auth/signup', auth: 'none', access: ['table:read', 'table:write', 'userpool:admin', 'buckets:read'], timeoutSeconds: 15 },
  { method: 'POST', path: '/combinedAuth', handler: 'http/auth/login', auth: 'none', access: ['table:read', 'table:write', 'buckets:read'] },
  { method: 'GET', path: '/refreshToken', handler: 'http/auth/refresh', auth: 'none', access: ['table:read', 'buckets:read'] },
  { method: 'GET', path: '/logout', handler: 'http/auth/logout', auth: 'none', access: [] },
  { method: 'POST', path: '/resetPasswordLink', handler: 'http/auth/reset-link', auth: 'none', access: ['table:read', 'table:write', 'mail:send'] },
  { method: 'POST', path: '/passTokenCheck', handler: 'http/auth/reset-check', auth: 'none', access: ['table:read'] },
  { method: 'POST', path: '/resetPassword', handler: 'http/auth/reset', auth: 'none', access: ['table:read', 'table:write', 'userpool:admin'] },
  { method: 'GET', path: '/me', handler: 'http/me/me', auth: 'jwt', access: ['table:read', 'buckets:read'] },
  { method: 'POST', path: '/v1/updateProfile', handler: 'http/me/update-profile', auth: 'jwt', access: ['table:read', 'table:write', 'buckets:read'] },
  { method: 'POST', path: '/me/images', handler: 'http/me/images', auth: 'jwt', access: ['buckets:write'] },
  { method: 'POST', path: '/folderSize', handler: 'http/me/folder-size', auth: 'jwt', access: ['table:read'] },
  { method: 'POST', path: '/quicksend2', handler: 'http/me/contacts', auth: 'jwt', access: ['table:read'] },
  { method: 'POST', path: '/feedback', handler: 'http/me/feedback', auth: 'jwt', access: ['table:read', 'table:write'] },

  // Guest sender verification (spec §4)
  { method: 'POST', path: '/verifyEmail', handler: 'http/verify/send-code', auth: 'none', access: ['table:read', 'table:write', 'mail:send'] },
  { method: 'POST', path: '/checkVerifyEmail', handler: 'http/verify/check-code', auth: 'none', access: ['table:read', 'table:write'] },

  // Sending (architecture §3 steps 1-3)
  { method: 'POST', path: '/transfers', handler: 'http/transfers/create-guest', auth: 'none', access: ['table:read', 'table:write', 'buckets:write'], timeoutSeconds: 29 },
  { method: 'POST', path: '/me/transfers', handler: 'http/transfers/create', auth: 'jwt', access: ['table:read', 'table:write', 'buckets:write'], timeoutSeconds: 29 },
  { method: 'PATCH', path: '/transfers/addFiles', handler: 'http/transfers/add-files', auth: 'jwt', access: ['table:read', 'table:write', 'buckets:write'], timeoutSeconds: 29 },
  { method: 'POST', path: '/transfers/{id}/sign', handler: 'http/transfers/sign', auth: 'none', access: ['table:read', 'buckets:write'] },
  { method: 'POST', path: '/transfers/{id}/parts', handler: 'http/transfers/record-part', auth: 'none', access: ['table:read', 'table:write'] },
  { method: 'GET', path: '/transfers/{id}/upload-state', handler: 'http/transfers/upload-state', auth: 'none', access: ['table:read'] },
  {
    method: 'POST',
    path: '/transfers/{id}/files/{fileId}/complete',
    handler: 'http/transfers/complete-file',
    auth: 'none',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 29,
  },
  { method: 'POST', path: '/transfers/{id}/complete', handler: 'http/transfers/complete', auth: 'none', access: ['table:read', 'table:write', 'mail:send'], timeoutSeconds: 29 },
  { method: 'POST', path: '/transfers/{id}/cancel', handler: 'http/transfers/cancel', auth: 'none', access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'], timeoutSeconds: 29 },
  { method: 'DELETE', path: '/transfers/{id}', handler: 'http/transfers/delete', auth: 'jwt', access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'], timeoutSeconds: 29 },

  // Receiving (architecture §3 steps 4-6)
  { method: 'POST', path: '/getDownload', handler: 'http/downloads/get-download', auth: 'none', access: ['table:read', 'table:write'] },
  { method: 'POST', path: '/getDownload/file', handler: 'http/downloads/get-file', auth: 'none', access: ['table:read', 'table:write', 'buckets:read', 'mail:send'] },
  { method: 'POST', path: '/zip', handler: 'http/downloads/zip', auth: 'none', access: ['table:read', 'table:write', 'buckets:read', 'mail:send', 'jobs:invoke'], invokes: ['zip-build'] },
  { method: 'POST', path: '/extension/request', handler: 'http/downloads/request-extension', auth: 'none', access: ['table:read', 'table:write', 'mail:send'] },
  { method: 'POST', path: '/checkExtension', handler: 'http/downloads/check-extension', auth: 'none', access: ['table:read', 'table:write', 'mail:send'] },
];

export const jobs: readonly JobDef[] = [
  {
    name: 'heartbeat',
    handler: 'jobs/heartbeat',
    schedule: 'rate(5 minutes)',
    access: ['table:write'],
  },
  {
    name: 'expiry-sweep',
    handler: 'jobs/expiry-sweep',
    schedule: 'rate(15 minutes)',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 300,
  },
  {
    // Started by POST /zip; streams S3 -> ZIP -> S3 multipart, so memory stays flat at any size.
    name: 'zip-build',
    handler: 'jobs/zip-build',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 900,
    memoryMb: 512,
  },
];

/** API Gateway's route key of a route, as the v2 event's `routeKey` carries it. */
export function routeKeyOf(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${API_PREFIX}${route.path}`;
}

/** The directory a handler module lives in: `http/auth/login` -> `auth`. */
export function handlerDirOf(handler: string): string {
  const [kind, dir] = handler.split('/');
  if (kind !== 'http' || !dir) throw new Error(`route handler ${handler} is not under functions/http/<dir>/`);
  return dir;
}

/** The function group that serves a route (throws for a directory no group names). */
export function functionGroupOf(route: Pick<RouteDef, 'handler'>): FunctionGroup {
  const dir = handlerDirOf(route.handler);
  for (const [group, dirs] of Object.entries(FUNCTION_GROUPS) as [FunctionGroup, readonly string[]][]) {
    if (dirs.includes(dir)) return group;
  }
  throw new Error(`functions/http/${dir}/ belongs to no group of FUNCTION_GROUPS (functions/routes.ts)`);
}

/** One HTTP API Lambda function: its routes and what they need together. */
export interface FunctionDef {
  readonly name: FunctionGroup;
  readonly routes: readonly RouteDef[];
  /** union of the routes' access */
  readonly access: readonly Access[];
  /** union of the routes' invokes */
  readonly invokes: readonly string[];
  /** the longest route timeout (seconds) */
  readonly timeoutSeconds: number;
  readonly memoryMb: number | undefined;
}

export const DEFAULT_ROUTE_TIMEOUT_SECONDS = 10;

/** The route table grouped into functions (groups without routes are left out). */
export function functionsOf(table: readonly RouteDef[] = routes): FunctionDef[] {
  const byGroup = new Map<FunctionGroup, RouteDef[]>();
  for (const route of table) {
    const group = functionGroupOf(route);
    byGroup.set(group, [...(byGroup.get(group) ?? []), route]);
  }
  return [...byGroup].map(([name, defs]) => {
    const memory = defs.map((d) => d.memoryMb).filter((m): m is number => m !== undefined);
    return {
      name,
      routes: defs,
      access: [...new Set(defs.flatMap((d) => d.access))],
      invokes: [...new Set(defs.flatMap((d) => d.invokes ?? []))],
      timeoutSeconds: Math.max(...defs.map((d) => d.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS)),
      memoryMb: memory.length ? Math.max(...memory) : undefined,
    };
  });
}

/**
 * CORS of the HTTP API. The app calls the API on its own origin (CloudFront `/api/*`, Vite
 * proxy locally), so this only matters for other origins listed in config (custom domains).
 * CDK configures `corsPreflight` from it; the local gateway answers preflights from it.
 */
export const API_CORS = {
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type', 'x-requested-with'],
  exposeHeaders: [] as string[],
  allowCredentials: true,
  maxAgeSeconds: 600,
} as const;

/** Bucket CORS: the browser PUTs parts and GETs files straight from S3 and must read ETag. */
export const BUCKET_CORS = {
  allowMethods: ['GET', 'PUT', 'HEAD', 'POST'],
  allowHeaders: ['*'],
  exposeHeaders: ['ETag', 'x-amz-request-id'],
  maxAgeSeconds: 3000,
} as const;
