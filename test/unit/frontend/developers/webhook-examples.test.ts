/**
 * /developers' webhooks examples cannot drift from the server: the TypeScript
 * verification snippet the page shows (WEBHOOK_VERIFY_TS) is compiled as it stands and verifies
 * the headers the delivery worker signs (deliveryHeaders, signatureOf in
 * functions/services/webhooks.ts), refusing what the server did not sign, stale timestamps and
 * expired rotation secrets, exactly as docs/webhooks.md's JavaScript snippet (the official
 * `standardwebhooks` library) does: both run the same cases. The page's receiver example runs as a process and is sent signed deliveries; the
 * example delivery's signature is recomputed; the contract's event types and headers are the ones shown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import ts from 'typescript';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, SIGNATURE_TOLERANCE_SECONDS, WEBHOOK_HEADERS } from '@domain/webhooks-api';
import { deliveryHeaders, signatureOf } from '../../../../functions/services/webhooks';
import {
  EXAMPLE_DELIVERY,
  EXAMPLE_EVENT,
  EXAMPLE_SECRET,
  EXAMPLE_SIGNATURE,
  EXAMPLE_TIMESTAMP,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_HEADER_ROWS,
  WEBHOOK_RECEIVER_TS,
  WEBHOOK_VERIFY_TS,
  authExamples,
  sendExamples,
  webhookRegisterExamples,
} from '@/features/developers/examples';

type Verify = (
  rawBody: string | Buffer,
  headers: Record<string, string | undefined>,
  secret: string,
  toleranceSeconds?: number,
) => boolean;

const ROOT = path.resolve(__dirname, '../../../..');
// Inside the repository, so the docs' snippet finds its `standardwebhooks` import in node_modules.
mkdirSync(path.join(ROOT, 'node_modules/.cache'), { recursive: true });
const dir = mkdtempSync(path.join(ROOT, 'node_modules/.cache/sb-dev-webhooks-'));

/** TypeScript as the page shows it, compiled to a module and imported. */
async function compiled(name: string, ts: string): Promise<string> {
  const { code } = await transform(ts, { loader: 'ts', format: 'esm', target: 'node20' });
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(file, code);
  return file;
}

/** docs/webhooks.md's ```js block under "Verifying a delivery" (the one the integration test runs). */
function documentedSnippet(): string {
  const page = readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
  const code = /```js\n([\s\S]*?)```/u.exec(page.slice(page.indexOf('## Verifying a delivery')))?.[1];
  if (!code) throw new Error('no js snippet in docs/webhooks.md');
  return code;
}

const verifiers: Record<string, Verify> = {};

beforeAll(async () => {
  const page = await compiled('page-verify', WEBHOOK_VERIFY_TS);
  verifiers['the page (TypeScript)'] = (
    (await import(pathToFileURL(page).href)) as { verifySendBridgeWebhook: Verify }
  ).verifySendBridgeWebhook;
  const docs = path.join(dir, 'docs-verify.mjs');
  writeFileSync(docs, documentedSnippet());
  verifiers['docs/webhooks.md (JavaScript)'] = (
    (await import(pathToFileURL(docs).href)) as { verifySendBridgeWebhook: Verify }
  ).verifySendBridgeWebhook;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const event = {
  id: 'evt_01968b2e-75c0-74d2-8415-161f668a482d',
  type: 'transfer.created' as const,
  body: JSON.stringify({
    id: 'evt_01968b2e-75c0-74d2-8415-161f668a482d',
    type: 'transfer.created',
    data: { name: 'Ünïcødé ✓' },
  }),
};
const SECRET = 'whsec_dGhlIGN1cnJlbnQgc2VjcmV0IG9mIHRoZSBlbmRwb2ludA==';
const OLD = 'whsec_dGhlIHByZXZpb3VzIHNlY3JldCBvZiB0aGUgZW5kcG9pbnQ=';

describe.each(['the page (TypeScript)', 'docs/webhooks.md (JavaScript)'])('the verification snippet of %s', (which) => {
  const verify = (...args: Parameters<Verify>) => verifiers[which]!(...args);

  it("accepts the server's signed delivery, with the body as a string or as the raw bytes", () => {
    const headers = deliveryHeaders({ secret: SECRET }, event, Date.now());
    expect(headers[WEBHOOK_HEADERS.signature]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/u);
    expect(verify(event.body, headers, SECRET)).toBe(true);
    expect(verify(Buffer.from(event.body, 'utf8'), headers, SECRET)).toBe(true);
  });

  it('refuses another body, another secret, a missing or foreign signature', () => {
    const headers = deliveryHeaders({ secret: SECRET }, event, Date.now());
    expect(verify(event.body.replace('created', 'expired'), headers, SECRET)).toBe(false);
    expect(verify(`${event.body} `, headers, SECRET)).toBe(false);
    expect(verify(event.body, headers, 'whsec_c29tZW9uZSBlbHNlJ3Mgc2VjcmV0')).toBe(false);
    expect(verify(event.body, { ...headers, [WEBHOOK_HEADERS.signature]: undefined }, SECRET)).toBe(false);
    expect(
      verify(
        event.body,
        { ...headers, [WEBHOOK_HEADERS.signature]: headers[WEBHOOK_HEADERS.signature]!.replace('v1,', 'v0,') },
        SECRET,
      ),
    ).toBe(false);
    expect(
      verify(
        event.body,
        { ...headers, [WEBHOOK_HEADERS.signature]: headers[WEBHOOK_HEADERS.signature]!.slice(0, -2) },
        SECRET,
      ),
    ).toBe(false);
  });

  it(`accepts a timestamp within ${SIGNATURE_TOLERANCE_SECONDS} s of the clock and refuses one further away (replays)`, () => {
    const now = Date.now();
    expect(
      verify(
        event.body,
        deliveryHeaders({ secret: SECRET }, event, now - (SIGNATURE_TOLERANCE_SECONDS - 10) * 1000),
        SECRET,
      ),
    ).toBe(true);
    expect(
      verify(
        event.body,
        deliveryHeaders({ secret: SECRET }, event, now - (SIGNATURE_TOLERANCE_SECONDS + 10) * 1000),
        SECRET,
      ),
    ).toBe(false);
    expect(
      verify(
        event.body,
        deliveryHeaders({ secret: SECRET }, event, now + (SIGNATURE_TOLERANCE_SECONDS + 10) * 1000),
        SECRET,
      ),
    ).toBe(false);
    expect(
      verify(
        event.body,
        { ...deliveryHeaders({ secret: SECRET }, event, now), [WEBHOOK_HEADERS.timestamp]: 'soon' },
        SECRET,
      ),
    ).toBe(false);
  });

  it("during a rotation's grace period accepts either secret (two v1= signatures), after it only the new one", () => {
    const now = Date.now();
    const rotating = { secret: SECRET, previousSecret: OLD, previousSecretExpiresAt: now + 3600_000 };
    const during = deliveryHeaders(rotating, event, now);
    expect(during[WEBHOOK_HEADERS.signature]!.split(' ')).toHaveLength(2);
    expect(verify(event.body, during, SECRET)).toBe(true);
    expect(verify(event.body, during, OLD)).toBe(true);
    const after = deliveryHeaders({ ...rotating, previousSecretExpiresAt: now - 1 }, event, now);
    expect(verify(event.body, after, SECRET)).toBe(true);
    expect(verify(event.body, after, OLD)).toBe(false);
  });
});

describe('the webhooks examples on /developers', () => {
  it('the page verifies its own example delivery, with its test-vector secret', () => {
    const verify = verifiers['the page (TypeScript)']!;
    const [head, body] = EXAMPLE_DELIVERY.split('\n\n') as [string, string];
    const headers = Object.fromEntries(
      head
        .split('\n')
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
    );
    const compact = JSON.stringify(JSON.parse(body));
    expect(verify(compact, headers, EXAMPLE_SECRET, Number.POSITIVE_INFINITY)).toBe(true);
    expect(verify(compact, headers, EXAMPLE_SECRET)).toBe(false); // its timestamp is long past
  });

  it("show the contract's event types and delivery headers, and the example's signature is the server's", () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual(EVENT_TYPES);
    expect(WEBHOOK_HEADER_ROWS.map((h) => h.name).sort()).toEqual(Object.values(WEBHOOK_HEADERS).sort());
    expect(EXAMPLE_SIGNATURE).toBe(
      `v1,${signatureOf(EXAMPLE_SECRET, EXAMPLE_EVENT.id, EXAMPLE_TIMESTAMP, JSON.stringify(EXAMPLE_EVENT))}`,
    );
    // the official library signs the example the same way
    expect(
      new Webhook(EXAMPLE_SECRET).sign(
        EXAMPLE_EVENT.id,
        new Date(EXAMPLE_TIMESTAMP * 1000),
        JSON.stringify(EXAMPLE_EVENT),
      ),
    ).toBe(EXAMPLE_SIGNATURE);
    const shown = deliveryHeaders(
      { secret: EXAMPLE_SECRET },
      { ...EXAMPLE_EVENT, body: JSON.stringify(EXAMPLE_EVENT) },
      EXAMPLE_TIMESTAMP * 1000,
    );
    for (const [name, value] of Object.entries(shown)) expect(EXAMPLE_DELIVERY).toContain(`\n${name}: ${value}\n`);
    expect(WEBHOOK_VERIFY_TS).toContain(`toleranceSeconds = ${SIGNATURE_TOLERANCE_SECONDS}`);
  });

  it('register an endpoint at this deployment with a body the contract accepts', async () => {
    const { createWebhookSchema } = await import('@domain/webhooks-api');
    const { curl, ts } = webhookRegisterExamples('https://app.example/api');
    expect(curl).toContain('curl -s -X POST "https://app.example/api/v1/webhooks"');
    const body = JSON.parse(/-d '([^']+)'/u.exec(curl)![1]!) as unknown;
    expect(createWebhookSchema.safeParse(body).success).toBe(true);
    expect(ts).toContain("api<{ endpoint: { id: string }; secret: string }>('/v1/webhooks'");
  });
});

/** The type errors of TypeScript modules (name -> text), compiled strict for Node 20 with its types. */
function typeErrors(modules: Record<string, string>): string[] {
  const files = Object.entries(modules).map(([name, text]) => {
    const file = path.join(dir, `${name}.mts`);
    writeFileSync(file, text);
    return file;
  });
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    types: ['node'],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

describe('the TypeScript examples on /developers', () => {
  it('compile under strict TypeScript for Node (authentication, send and register together, the verifier with its receiver)', () => {
    const api = 'https://app.example/api';
    expect(
      typeErrors({
        'key-examples': [authExamples(api).ts, sendExamples(api).ts, webhookRegisterExamples(api).ts].join('\n'),
        'receiver-example': `${WEBHOOK_VERIFY_TS}\n${WEBHOOK_RECEIVER_TS}`,
      }),
    ).toEqual([]);
  }, 60_000);
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the page's receiver example, run as it stands", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill();
  });

  it('answers 204 to a signed delivery, acts on an event id once however often it comes, and refuses a forged one with 400', async () => {
    const file = await compiled('receiver', `${WEBHOOK_VERIFY_TS}\n${WEBHOOK_RECEIVER_TS}`);
    const port = await freePort();
    child = spawn(process.execPath, [file], {
      env: { ...process.env, PORT: String(port), SENDBRIDGE_WEBHOOK_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));

    const post = (body: string, headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const up = await post('{}', {}).then(
        (r) => r.status,
        () => undefined,
      );
      if (up !== undefined) {
        expect(up).toBe(400); // unsigned
        break;
      }
      if (Date.now() > deadline) throw new Error(`the receiver did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    expect((await post(event.body, deliveryHeaders({ secret: SECRET }, event, Date.now()))).status).toBe(204);
    // a retry: same event id and body, a later attempt
    expect((await post(event.body, deliveryHeaders({ secret: SECRET }, event, Date.now() + 1000))).status).toBe(204);
    expect(
      (await post(event.body, deliveryHeaders({ secret: 'whsec_Zm9yZ2VkIGJ5IHNvbWVvbmUgZWxzZQ==' }, event, Date.now())))
        .status,
    ).toBe(400);
    const other = { ...event, id: 'evt_other', body: event.body.replace(event.id, 'evt_other') };
    expect((await post(other.body, deliveryHeaders({ secret: SECRET }, other, Date.now()))).status).toBe(204);
    await new Promise((r) => setTimeout(r, 100));
    expect(out.match(/^transfer\.created /gmu)).toHaveLength(2);
  }, 20_000);
});
