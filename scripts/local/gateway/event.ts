import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { API_PREFIX, type RouteDef } from '../../../functions/routes';

export interface IncomingRequest {
  readonly method: string;
  /** path and query as received, e.g. `/api/health?x=1` */
  readonly url: string;
  /** raw header pairs as Node received them (`req.rawHeaders`) */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  readonly sourceIp: string;
  readonly host: string;
}

const TEXT_TYPES = /^(text\/|application\/(json|.*\+json|x-www-form-urlencoded|xml|.*\+xml|javascript))/i;

/**
 * Builds the API Gateway HTTP API payload v2.0 event: lowercase headers (repeats joined by
 * ','), cookies moved out of the headers into `cookies`, query params joined by ',',
 * binary bodies base64-encoded, and the JWT claims where the JWT authorizer puts them.
 */
export function buildEvent(
  req: IncomingRequest,
  route: RouteDef,
  pathParameters: Record<string, string>,
  claims: Record<string, string> | undefined,
  now = new Date(),
): APIGatewayProxyEventV2WithJWTAuthorizer {
  const qIndex = req.url.indexOf('?');
  const rawPath = qIndex === -1 ? req.url : req.url.slice(0, qIndex);
  const rawQueryString = qIndex === -1 ? '' : req.url.slice(qIndex + 1);

  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    if (name === 'cookie') {
      cookies = [
        ...(cookies ?? []),
        ...value
          .split(';')
          .map((c) => c.trim())
          .filter(Boolean),
      ];
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    queryStringParameters = {};
    for (const [k, v] of new URLSearchParams(rawQueryString)) {
      queryStringParameters[k] = k in queryStringParameters ? `${queryStringParameters[k]},${v}` : v;
    }
  }

  const hasBody = req.body.length > 0;
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
  const routeKey = `${route.method} ${API_PREFIX}${route.path}`;
  const event: APIGatewayProxyEventV2WithJWTAuthorizer = {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: req.host,
      domainPrefix: req.host.split('.')[0] ?? req.host,
      http: {
        method: req.method.toUpperCase(),
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      authorizer: {
        jwt: { claims: claims ?? {}, scopes: claims?.scope ? claims.scope.split(' ') : [] },
        principalId: '',
        integrationLatency: 0,
      },
    },
    isBase64Encoded: hasBody && !isText,
  };
  if (!claims) delete (event.requestContext as { authorizer?: unknown }).authorizer;
  if (cookies) event.cookies = cookies;
  if (queryStringParameters) event.queryStringParameters = queryStringParameters;
  if (Object.keys(pathParameters).length) event.pathParameters = pathParameters;
  if (hasBody) event.body = isText ? req.body.toString('utf8') : req.body.toString('base64');
  return event;
}
