/**
 * THE route table (data only). Read by `lib/` (one HTTP API route + one Lambda per entry)
 * and by `scripts/local/gateway.ts` (dispatch). Never import handlers from here.
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
  | 'userpool:admin';

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
}

export interface JobDef {
  readonly name: string;
  readonly handler: string;
  /** EventBridge rate expression; the local gateway runs the job on the same period */
  readonly schedule: `rate(${number} ${'minute' | 'minutes' | 'hour' | 'hours'})`;
  readonly access: readonly Access[];
  readonly timeoutSeconds?: number;
  readonly memoryMb?: number;
}

export const API_PREFIX = '/api';

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
];

export const jobs: readonly JobDef[] = [
  {
    name: 'heartbeat',
    handler: 'jobs/heartbeat',
    schedule: 'rate(5 minutes)',
    access: ['table:write'],
  },
];

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
  exposeHeaders: ['ETag'],
  maxAgeSeconds: 3000,
} as const;
