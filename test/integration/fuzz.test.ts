/**
 * Fuzzing from the schemas: for every route of functions/routes.ts, request bodies,
 * path ids and queries are derived from the route's own zod schemas (kept on its handler by
 * `httpRoute`) and mutated: wrong types, huge strings, deep nesting, unicode, arrays for
 * objects, missing and extra keys, unparseable JSON. They go through the local gateway with
 * what lets them reach the code behind the schema (a valid JWT, real transfers and their
 * upload tokens, a guest's sender token). No answer may be a 5xx, show a stack trace, or name
 * an internal (AWS errors, table or bucket names, node_modules).
 *
 * A failure prints fast-check's seed and the shrunk request; rerun with FUZZ_SEED=<seed>.
 * FUZZ_RUNS sets the runs per route (default below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { REGION_IDS } from '../../functions/domain/regions';
import { API_PREFIX, ORIGIN_VERIFY_HEADER, ownsKindOf, routes, type ApiRoute } from '../../functions/routes';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  guestToken,
  json,
  randomData,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';
import { loadRouteSchemas, routeSchemas } from '../helpers/route-schemas';
import { arbitraryOf, jsonSchemaOf, junk, mutated, type Hints } from '../helpers/schema-arbitrary';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const PASSWORD = 'Fuzz-pass-77';

let app: LocalApp;
let user: TestUser;
let senderToken: string;
const stats = { requests: 0, byStatus: new Map<number, number>() };

/** Internal names no answer may carry (besides the table and bucket names of this stack). */
const LEAKS: RegExp[] = [
  /\n\s*at .+\(?.+:\d+:\d+\)?/,
  /\.(ts|js|mjs|cjs):\d+/,
  /node_modules/,
  /DynamoDB/i,
  /ConditionalCheckFailed/,
  /ValidationException/,
  /ResourceNotFound/,
  /TransactionCanceled/,
  /ProvisionedThroughput/,
  /NoSuch(Key|Upload|Bucket)/,
  /InvalidPart|EntityTooSmall|SignatureDoesNotMatch/,
  /s3rver/i,
  /cognito/i,
  /\b(TypeError|ReferenceError|RangeError)\b/,
  /Cannot read propert/,
  /is not a function|is not defined|undefined is not/,
  /Maximum call stack/,
  /ZodError/,
];
/**
 * Bucket names appear in presigned URLs (path-style, as S3 signs them); an error answer must not
 * name one, nor the table (`npm start`'s names, or a test file's own on the shared emulators).
 */
const ERROR_ONLY_LEAKS: RegExp[] = [/sendbridge-(local|test-|t[0-9a-f]{10})/];

async function transferOf(
  fileSizes: number[],
  opts: { finish: boolean; password?: string },
): Promise<CreateTransferResponse> {
  const files = fileSizes.map((size, i) => ({ fileName: `fuzz-${i}.bin`, size }));
  const res = await api(
    app,
    '/me/transfers',
    // review on, so the review routes' requests get past review_off to the code behind it
    json(
      { sendAs: 'link', fileObjects: files, review: true, ...(opts.password ? { password: opts.password } : {}) },
      bearer(user),
    ),
  );
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  const t = res.json as CreateTransferResponse;
  if (opts.finish) {
    await uploadAll(app, t, new Map(files.map((f) => [f.fileName, randomData(f.size)])));
    const done = await completeTransfer(app, t);
    if (done.status !== 200) throw new Error(`complete ${done.status} ${done.text}`);
  }
  return t;
}

/**
 * The real record a route's requests aim at, so mutated requests get past the first lookup:
 * a fresh one per route (the fuzzing may delete, cancel or complete it).
 */
/** a request of the fuzzing user, with a visitor's finished upload for the owner routes. */
async function requestOf(withUpload: boolean): Promise<{ id: string; uploadSlug?: string }> {
  const res = await api(app, '/requests', json({ title: 'Fuzz request', message: 'send' }, bearer(user)));
  if (res.status !== 201) throw new Error(`request ${res.status} ${res.text}`);
  const id = res.json.id as string;
  if (!withUpload) return { id };
  const start = await api(
    app,
    `/r/${id}/uploads`,
    json(
      { senderName: 'Fuzz', senderEmail: 'fuzz.guest@example.com', fileObjects: [{ fileName: 'fuzz.pdf', size: 9 }] },
      { 'x-sender-token': senderToken },
    ),
  );
  if (start.status !== 201) throw new Error(`request upload ${start.status} ${start.text}`);
  const t = start.json as CreateTransferResponse;
  await uploadAll(app, t, new Map([['fuzz.pdf', randomData(9)]]));
  const done = await completeTransfer(app, t);
  if (done.status !== 200) throw new Error(`request upload complete ${done.status} ${done.text}`);
  return { id, uploadSlug: t.id };
}

/** a pending invite of the fuzzing user (a pro plan, 2 seats: earlier routes' invites and members are cleared first). */
async function inviteOf(): Promise<{ id: string; token: string; email: string }> {
  const team = await api(app, '/teams', { headers: bearer(user) });
  for (const i of team.json.invites as { id: string }[])
    await api(app, `/teams/invites/${i.id}`, { method: 'DELETE', headers: bearer(user) });
  for (const m of (team.json.members as { shareWithId: string; isAdmin: boolean }[]).filter((x) => !x.isAdmin))
    await api(app, `/teams/members/${m.shareWithId}`, { method: 'DELETE', headers: bearer(user) });
  inviteCount += 1;
  const email = `fuzz.invitee${inviteCount}@example.com`;
  const res = await api(app, '/teams/invites', json({ email }, bearer(user)));
  if (res.status !== 201) throw new Error(`invite ${res.status} ${res.text}`);
  const mail = await waitForMail(app, email, /\/invite\/[A-Za-z0-9_-]{43}/);
  return { id: res.json.id as string, token: /\/invite\/([A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!, email };
}
let inviteCount = 0;

async function recordFor(route: ApiRoute): Promise<{
  t?: CreateTransferResponse;
  password?: string;
  request?: { id: string; uploadSlug?: string };
  invite?: { id: string; token: string; email: string };
}> {
  switch (ownsKindOf(route.owns)) {
    case 'team-invite:owner':
    case 'team-invite:mailed-token':
      return { invite: await inviteOf() };
    case 'request:owner':
      return { request: await requestOf(true) };
    case 'request:link':
      return { request: await requestOf(false) };
    case 'transfer:upload-token':
      // one single-PUT file and one multipart file (the 6 MiB plan exists without uploading)
      return { t: await transferOf([10, 6 * 1024 * 1024 + 3], { finish: false }) };
    case 'transfer:owner':
      // the public API's upload routes aim at an unfinished upload, as the upload-token ones do
      if (route.auth === 'key' && /sign|parts|upload-state|files/u.test(route.path))
        return { t: await transferOf([10, 6 * 1024 * 1024 + 3], { finish: false }) };
      return { t: await transferOf([20], { finish: true }) };
    case 'transfer:link-password':
    case 'transfer:link':
      return { t: await transferOf([30], { finish: true, password: PASSWORD }), password: PASSWORD };
    default:
      return {};
  }
}

function hintsFor(
  t: CreateTransferResponse | undefined,
  password: string | undefined,
  request?: { id: string },
  invite?: { token: string; email: string },
): Hints {
  const ids = t ? [t.id] : [];
  const fileIds = t ? t.files.map((f) => f.fileId) : [];
  return {
    ...(t ? { id: fc.constantFrom(...ids), slug: fc.constantFrom(...ids), fileId: fc.constantFrom(...fileIds) } : {}),
    // GET /requests?slug= names a request; ?userid= the caller or someone else
    ...(request
      ? { slug: fc.constantFrom(request.id, 'Zq9Xw2Kp'), userid: fc.constantFrom(user.sub, 'someone-else', '') }
      : {}),
    ...(password ? { password: fc.constant(password) } : {}),
    // PATCH /v1/teams names the invite's token and the invited address (real ones reach the accept)
    ...(invite
      ? {
          token: fc.constantFrom(invite.token, 'f'.repeat(43)),
          newMemberEmail: fc.constantFrom(invite.email, 'fuzz.other@example.com'),
        }
      : {}),
    email: fc.oneof(fc.emailAddress(), fc.constantFrom(user.email, 'fuzz.other@example.com')),
    senderEmail: fc.constant('fuzz.guest@example.com'),
    lang: fc.constantFrom('en', 'de', 'zh-TW', 'xx'),
    region: fc.constantFrom(...REGION_IDS, 'mars'),
    // PATCH /settings/region names the account: the caller's own id reaches the region rules, others the 403
    userid: fc.constantFrom(user.sub, 'someone-else'),
    // billing bodies name a price and the account: real and forged ones
    price_id: fc.constantFrom('price_sim_pro_month', 'price_sim_business_year', 'price_forged'),
    priceId: fc.constantFrom('price_sim_personal_month', 'price_sim_pro_year', 'price_forged'),
    mongo_id: fc.constantFrom(user.sub, 'someone-else'),
    SSuserId: fc.constantFrom(user.sub, 'someone-else'),
    customer_email: fc.constantFrom(user.email, 'fuzz.other@example.com'),
    size: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom(0, 1, 2 ** 53 - 1)),
    partNumber: fc.integer({ min: 1, max: 3 }),
    partNumbers: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
    expirySeconds: fc.constantFrom(3600, 86_400, 604_800, -1, 0, 10 ** 12),
    customExpiryDate: fc.constantFrom(Date.now() + 86_400_000, 0, -1, 8.64e15),
    // analytics ranges: real days (a valid range, a reversed one, one too long), impossible ones
    from: fc.constantFrom('2025-01-01', '2026-11-01', '2024-02-29', '2025-02-30', '0000-00-00'),
    to: fc.constantFrom(new Date().toISOString().slice(0, 10), '2025-12-31', '2023-01-01', '9999-12-31'),
  };
}

/** Bodies from the route's own body schema (every create route parses the send's static schema itself). */
function bodyArbitrary(route: ApiRoute, hints: Hints): fc.Arbitrary<unknown> {
  const schemas = routeSchemas(route);
  return mutated(schemas.body ? arbitraryOf(jsonSchemaOf(schemas.body), hints) : fc.jsonValue({ maxDepth: 2 }));
}

/** A path segment: the real id, a well-formed unknown one, or junk (URL-encoded). */
function segment(pattern: RegExp, real: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: real.length ? fc.constantFrom(...real) : fc.stringMatching(pattern) },
    { weight: 1, arbitrary: fc.stringMatching(pattern) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
          fc.constantFrom('..', '%2e%2e', 'a'.repeat(3000), ' ', '%00'),
        )
        .map((s) => encodeURIComponent(s)),
    },
  );
}

interface FuzzRequest {
  readonly path: string;
  readonly query: string;
  readonly raw?: { readonly text: string; readonly contentType: string };
  readonly body?: unknown;
  readonly viewer: string;
}

function requestArbitrary(
  route: ApiRoute,
  t: CreateTransferResponse | undefined,
  hints: Hints,
  request?: { id: string; uploadSlug?: string },
  invite?: { id: string; token: string },
): fc.Arbitrary<FuzzRequest> {
  const idSegment = invite
    ? route.path === '/invite/{id}'
      ? segment(/^[A-Za-z0-9_-]{43}$/, [invite.token])
      : segment(/^[A-Za-z0-9]{16}$/, [invite.id])
    : request
      ? segment(/^[A-Za-z0-9]{8}$/, [request.id])
      : segment(/^[A-Za-z0-9]{7}$/, t ? [t.id] : []);
  const path = fc
    .tuple(
      idSegment,
      segment(/^[A-Za-z0-9]{10}$/, t ? t.files.map((f) => f.fileId) : []),
      segment(/^[A-Za-z0-9]{7}$/, request?.uploadSlug ? [request.uploadSlug] : []),
      // a review thread's id (a UUIDv7): well-formed ones name no thread of the fresh transfer
      segment(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, []),
    )
    .map(([id, fileId, slug, commentId]) =>
      route.path
        .replace('{id}', id)
        .replace('{fileId}', fileId)
        .replace('{slug}', slug)
        .replace('{commentId}', commentId),
    );
  const randomQuery = fc
    .option(
      fc.dictionary(
        fc.string({ maxLength: 8 }),
        fc.oneof(
          fc.string({ maxLength: 20 }),
          junk.map((v) => JSON.stringify(v) ?? ''),
        ),
        { maxKeys: 3 },
      ),
      { freq: 3 },
    )
    .map((q) => (q ? `?${new URLSearchParams(q as Record<string, string>)}` : ''));
  // A route with a query schema also gets queries derived from it, so its code runs past the schema.
  const querySchema = routeSchemas(route).query;
  const query = querySchema
    ? fc.oneof(
        randomQuery,
        arbitraryOf(jsonSchemaOf(querySchema), hints).map(
          (q) =>
            `?${new URLSearchParams(Object.entries(q as Record<string, unknown>).map(([k, v]) => [k, String(v)]))}`,
        ),
      )
    : randomQuery;
  const raw = fc.record({
    text: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        '{"id": ',
        '[',
        'null',
        '"str"',
        '{"a":1}{',
        '\u0000',
        '{"__proto__": {"admin": true}}',
        '9'.repeat(400),
      ),
    ),
    contentType: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/json; charset=utf-16',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ),
  });
  // The client's address as CloudFront would send it, so per-client limits do not flatten every run into a 429.
  const viewer = fc.oneof(
    fc.ipV4().map((ip) => `${ip}:443`),
    fc.ipV6().map((ip) => `[${ip}]:443`),
    fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim()),
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ path, query, body: bodyArbitrary(route, hints), viewer }) },
    { weight: 1, arbitrary: fc.record({ path, query, raw, viewer }) },
  );
}

async function send(route: ApiRoute, req: FuzzRequest, t: CreateTransferResponse | undefined) {
  const headers: Record<string, string> = {
    'cloudfront-viewer-address': req.viewer,
    [ORIGIN_VERIFY_HEADER]: app.originSecret,
  };
  if (route.auth === 'jwt') Object.assign(headers, bearer(user));
  // a fresh key per route (every scope), so the per-key rate limit does not flatten the runs into 429s
  if (route.auth === 'key') headers.authorization = `Bearer ${await keyFor(route)}`;
  if (t) headers['x-upload-token'] = t.uploadToken;
  if (route.path === '/transfers' || route.path === '/r/{id}/uploads') headers['x-sender-token'] = senderToken;
  let body: string | undefined;
  if (route.method !== 'GET') {
    if (req.raw) {
      body = req.raw.text;
      headers['content-type'] = req.raw.contentType;
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
  }
  const res = await api(app, `${req.path}${req.query}`, {
    method: route.method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  stats.requests += 1;
  stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
  return res;
}

const routeKeys = new Map<ApiRoute, string>();
async function keyFor(route: ApiRoute): Promise<string> {
  let key = routeKeys.get(route);
  if (!key) {
    const mint = () =>
      api(
        app,
        '/me/api-keys',
        json(
          {
            name: `fuzz ${route.method} ${route.path}`.slice(0, 60),
            scopes: ['send', 'transfers:read', 'requests', 'webhooks'],
          },
          bearer(user),
        ),
      );
    let res = await mint();
    if (res.status === 409) {
      // the fuzzing of POST /me/api-keys filled the user's 25 keys: revoke those it made
      const mine = new Set([...routeKeys.values()].map((k) => k.split('_')[2]));
      for (const k of (await api(app, '/me/api-keys', { headers: bearer(user) })).json.keys as { id: string }[]) {
        if (!mine.has(k.id)) await api(app, `/me/api-keys/${k.id}`, { method: 'DELETE', headers: bearer(user) });
      }
      res = await mint();
    }
    if (res.status !== 201) throw new Error(`api key ${res.status} ${res.text}`);
    key = res.json.key as string;
    routeKeys.set(route, key);
  }
  return key;
}

function leakIn(text: string, status = 500): string | undefined {
  // (The app client id is no secret: /me/claims answers it, and the app holds it.)
  // A 2xx may hand out presigned URLs: they name the bucket and (locally) s3rver's credential, as S3 signs them.
  const checked = status >= 400 ? text : text.replace(/https?:\/\/[^"\s]*/g, '<url>');
  const names = [app.stack.env.TABLE_NAME, app.stack.userPoolId].filter((n): n is string => Boolean(n));
  for (const n of names) if (checked.includes(n)) return n;
  return [...LEAKS, ...(status >= 400 ? ERROR_ONLY_LEAKS : [])].find((re) => re.test(checked))?.source;
}

beforeAll(async () => {
  await loadRouteSchemas();
  app = await startTestApp();
  user = await createUser(app, 'fuzz.user@example.com');
  senderToken = await guestToken(app, 'fuzz.guest@example.com');
});

afterAll(async () => {
  const byStatus = [...stats.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  console.info(`fuzz: ${stats.requests} requests over ${routes.length} routes (${RUNS} runs each) - ${byStatus}`);
  await app?.stop();
});

describe('fuzzing every route from its schemas', () => {
  it('every route handler exposes its schemas', () => {
    for (const r of routes) expect(routeSchemas(r), r.handler).toBeDefined();
  });

  it('the leak check recognises what it is looking for', () => {
    expect(leakIn('{"error":{"message":"ConditionalCheckFailedException"}}')).toBeDefined();
    expect(leakIn(`Error: x\n    at handler (/work/functions/http/x.ts:10:5)`)).toBeDefined();
    expect(leakIn(`{"table":"${app.stack.env.TABLE_NAME}"}`)).toBeDefined();
    expect(leakIn('{"error":{"code":"invalid_request","message":"body: email invalid_email"}}')).toBeUndefined();
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: no 5xx, no stack trace, no internal name',
    async (_name, route) => {
      const { t, password, request, invite } = await recordFor(route);
      const hints = hintsFor(t, password, request, invite);
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route, t, hints, request, invite), async (req) => {
          const res = await send(route, req, t);
          const where = `${route.method} ${API_PREFIX}${route.path} -> ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          expect(leakIn(res.text, res.status), where).toBeUndefined();
        }),
        {
          numRuns: RUNS,
          ...(SEED !== undefined ? { seed: SEED } : {}),
          endOnFailure: false,
          interruptAfterTimeLimit: 20_000,
        },
      );
    },
  );
});
