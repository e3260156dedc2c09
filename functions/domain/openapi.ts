/**
 * the OpenAPI 3.1 document of the public API v1, generated (never written by hand)
 * from the route table (every `auth: 'key'` route, its method, path and scope) and the zod
 * schemas of functions/domain/public-api.ts, which the v1 handlers parse with. zod v4's
 * `toJSONSchema` writes JSON Schema 2020-12, the dialect OpenAPI 3.1 uses.
 */
import * as z from 'zod/mini';
import { API_PREFIX, routes, type RouteDef } from '../routes';
import { API_KEY_RATE_LIMIT } from './api-keys';
import { V1_OPERATIONS, type V1Operation } from './public-api-docs';

type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.0';
export const PUBLIC_API_VERSION = '1.0.0';

/** The v1 routes the document describes: every route an API key opens. */
export function publicRoutes(table: readonly RouteDef[] = routes): RouteDef[] {
  return table.filter((r) => r.auth === 'key');
}

function jsonSchema(schema: z.ZodMiniType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return rest;
}

/** One OpenAPI parameter per property of an object schema (path or query). */
function parametersOf(schema: z.ZodMiniType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const js = jsonSchema(schema);
  const props = (js.properties ?? {}) as Record<string, Json>;
  const required = new Set((js.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operationOf(route: RouteDef, op: V1Operation): Json {
  const operationId = `${route.method.toLowerCase()}${route.path
    .replace(/^\/v1/u, '')
    .split(/[/{}.-]+/u)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('')}`;
  const parameters = [...parametersOf(op.params, 'path'), ...parametersOf(op.query, 'query')];
  return {
    operationId,
    summary: op.summary,
    description: `${op.description}\n\nScope: \`${route.scope}\`.`,
    tags: [op.tag],
    security: [{ apiKey: [] }],
    'x-sendbridge-scope': route.scope,
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            // a body schema that takes no body at all (the file's complete call) is optional
            required: !op.body.safeParse(undefined).success,
            content: { 'application/json': { schema: jsonSchema(op.body) } },
          },
        }
      : {}),
    responses: {
      [String(op.status)]: { description: op.summary, content: { 'application/json': { example: op.example } } },
      ...(op.pending
        ? {
            [String(op.pending.status)]: {
              description: op.pending.description,
              headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } },
              content: { 'application/json': { example: op.pending.example } },
            },
          }
        : {}),
      '400': errorRef(
        'The request does not match the schema (`invalid_request`, `details.issues`) or a product rule refused it',
      ),
      '401': errorRef('No API key, or a malformed, unknown or revoked one (`invalid_api_key`)'),
      '403': errorRef('The key lacks the scope (`key_scope_missing`), or the record is not yours'),
      '404': errorRef('No such record (e.g. `transfer_not_found`)'),
      '429': {
        ...errorRef(
          `More than ${API_KEY_RATE_LIMIT.requests} requests in ${API_KEY_RATE_LIMIT.windowSeconds} s with this key (\`rate_limited\`)`,
        ),
        headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } },
      },
    },
  };
}

/** The document, for a deployment whose API is served at `serverUrl` (`https://…/api`). */
export function openApiDocument(serverUrl: string, table: readonly RouteDef[] = routes): Json {
  const paths: Record<string, Json> = {};
  for (const route of publicRoutes(table)) {
    const op = V1_OPERATIONS[`${route.method} ${route.path}`];
    if (!op) throw new Error(`${route.method} ${route.path} has no operation in functions/domain/public-api.ts`);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(route, op) };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'SendBridge API',
      version: PUBLIC_API_VERSION,
      description:
        'Send files, read transfers and their downloads, create file requests and manage webhook endpoints with an API key. Keys are made in the dashboard (Account, API keys); send one as `Authorization: Bearer sbk_…`. Errors carry a stable `code`.',
    },
    servers: [{ url: serverUrl }],
    tags: [{ name: 'Transfers' }, { name: 'Uploads' }, { name: 'Requests' }, { name: 'Webhooks' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sbk_<env>_<id>_<secret>',
          description: 'An API key from the dashboard',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', description: 'stable, snake_case' },
                message: { type: 'string', description: 'English, for people; do not match it' },
                field: { type: 'string' },
                details: { type: 'object' },
              },
            },
          },
        },
      },
    },
  };
}

/** The API prefix the document's paths are relative to. */
export const OPENAPI_SERVER_PATH = API_PREFIX;
