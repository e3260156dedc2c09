/**
 * the /developers page's code examples (curl and TypeScript), for the deployment the
 * page is served by (`api` is the document's server URL, `https://…/api`). Code stays code in
 * every language; the words around it come from the `api` catalogue (`docs.…`).
 */
import { API_KEY_RATE_LIMIT } from '@domain/api-key-scopes';
// The webhooks contract's values from its zod-free part (webhook-events.ts, re-exported by
// webhooks-api.ts): the lazy page stays without the schemas. Types from the contract itself.
import {
  DEFAULT_ROTATION_GRACE_HOURS,
  EVENT_TYPES,
  RETRY_WINDOW_MS,
  SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_HEADERS,
} from '@domain/webhook-events';
import type { EventEnvelope, EventType, TransferDownloadedData } from '@domain/webhooks-api';

export const RATE_LIMIT = API_KEY_RATE_LIMIT;

export function authExamples(api: string) {
  return {
    curl: `export SENDBRIDGE_KEY=sbk_live_…   # from Account, API keys
curl -s "${api}/v1/transfers" \\
  -H "Authorization: Bearer $SENDBRIDGE_KEY"`,
    ts: `const API = '${api}';
const KEY = process.env.SENDBRIDGE_KEY!; // never put a key in a URL

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(\`\${API}\${path}\`, {
    ...init,
    headers: { authorization: \`Bearer \${KEY}\`, 'content-type': 'application/json', ...init.headers },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(\`\${res.status} \${body.error.code}: \${body.error.message}\`);
  return body as T;
}

const { transfers } = await api<{ transfers: unknown[] }>('/v1/transfers');`,
  };
}

export function sendExamples(api: string) {
  return {
    curl: `API=${api}
AUTH="Authorization: Bearer $SENDBRIDGE_KEY"
FILE=video.mov; SIZE=$(stat -c %s "$FILE")

# 1. create the transfer: its answer is the upload plan
T=$(curl -s -X POST "$API/v1/transfers" -H "$AUTH" -H 'content-type: application/json' \\
  -d "{\\"sendAs\\":\\"email\\",\\"emailTo\\":[{\\"email\\":\\"ana@example.com\\"}],\\"message\\":\\"Hi Ana\\",\\"expirySeconds\\":604800,\\"fileObjects\\":[{\\"fileName\\":\\"$FILE\\",\\"size\\":$SIZE}]}")
ID=$(echo "$T" | jq -r .id); FID=$(echo "$T" | jq -r '.files[0].fileId')
PART_SIZE=$(echo "$T" | jq -r '.files[0].partSize'); PARTS=$(echo "$T" | jq -r '.files[0].partCount')

# 2. multipart (50 MB and more): sign, PUT and record each part
for N in $(seq 1 "$PARTS"); do
  URL=$(curl -s -X POST "$API/v1/transfers/$ID/sign" -H "$AUTH" -H 'content-type: application/json' \\
    -d "{\\"fileId\\":\\"$FID\\",\\"partNumbers\\":[$N]}" | jq -r '.parts[0].url')
  dd if="$FILE" bs="$PART_SIZE" skip=$((N-1)) count=1 status=none > part.bin
  ETAG=$(curl -s -X PUT --upload-file part.bin "$URL" -D - -o /dev/null | tr -d '\\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
  curl -s -X POST "$API/v1/transfers/$ID/parts" -H "$AUTH" -H 'content-type: application/json' \\
    -d "{\\"fileId\\":\\"$FID\\",\\"partNumber\\":$N,\\"etag\\":$(jq -Rn --arg e "$ETAG" '$e'),\\"size\\":$(stat -c %s part.bin)}"
done
# (a file under 50 MB has mode "single": curl -X PUT --upload-file "$FILE" "$(echo "$T" | jq -r '.files[0].url')")

# 3. complete the file, then the transfer (the recipients are mailed now)
curl -s -X POST "$API/v1/transfers/$ID/files/$FID/complete" -H "$AUTH"
curl -s -X POST "$API/v1/transfers/$ID/complete" -H "$AUTH"`,
    ts: `import { readFile } from 'node:fs/promises';

interface Planned { fileId: string; mode: 'single' | 'multipart'; url?: string; partSize?: number; partCount?: number }
interface Created { id: string; link: string; files: Planned[] }

const data = await readFile('video.mov');
// 1. create the transfer (api() from the authentication example)
const t = await api<Created>('/v1/transfers', {
  method: 'POST',
  body: JSON.stringify({
    sendAs: 'email',
    emailTo: [{ email: 'ana@example.com' }],
    message: 'Hi Ana',
    expirySeconds: 604800,
    fileObjects: [{ fileName: 'video.mov', size: data.byteLength }],
  }),
});
const f = t.files[0]!;

// 2. upload: one PUT, or each part signed, PUT and recorded (resumable for 7 days)
if (f.mode === 'single') {
  await fetch(f.url!, { method: 'PUT', body: data });
} else {
  for (let n = 1; n <= f.partCount!; n++) {
    const bytes = data.subarray((n - 1) * f.partSize!, n * f.partSize!);
    const { parts } = await api<{ parts: { url: string }[] }>(\`/v1/transfers/\${t.id}/sign\`, {
      method: 'POST',
      body: JSON.stringify({ fileId: f.fileId, partNumbers: [n] }),
    });
    const put = await fetch(parts[0]!.url, { method: 'PUT', body: bytes });
    await api(\`/v1/transfers/\${t.id}/parts\`, {
      method: 'POST',
      body: JSON.stringify({ fileId: f.fileId, partNumber: n, etag: put.headers.get('etag'), size: bytes.byteLength }),
    });
  }
}

// 3. complete the file, then the transfer
await api(\`/v1/transfers/\${t.id}/files/\${f.fileId}/complete\`, { method: 'POST' });
await api(\`/v1/transfers/\${t.id}/complete\`, { method: 'POST' });
console.log(t.link);`,
  };
}

export const ERROR_EXAMPLE = `HTTP/1.1 403 Forbidden
content-type: application/json

{
  "error": {
    "code": "key_scope_missing",
    "message": "This API key does not have the \\"send\\" scope."
  }
}`;

export const RATE_LIMIT_EXAMPLE = `HTTP/1.1 429 Too Many Requests
Retry-After: 17

{ "error": { "code": "rate_limited", "message": "…", "details": { "retryAfterSeconds": 17 } } }`;

/** The key's own error codes, in the order the page explains them. */
export const KEY_ERROR_CODES = [
  'invalid_api_key',
  'key_scope_missing',
  'api_keys_not_allowed',
  'rate_limited',
  'invalid_request',
  'transfer_not_found',
] as const;

// ---- webhooks ---------------------------------------------------------------------------------

/** The event types a key can subscribe an endpoint to, in the contract's order. */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES;
/** How long a delivery is retried after its event, in hours (24). */
export const WEBHOOK_RETRY_HOURS = RETRY_WINDOW_MS / 3_600_000;
export const WEBHOOK_TOLERANCE_SECONDS = SIGNATURE_TOLERANCE_SECONDS;
/** How long a rotated secret keeps signing beside the new one, in hours (24). */
export const WEBHOOK_GRACE_HOURS = DEFAULT_ROTATION_GRACE_HOURS;
/** The headers of every delivery, in the order the page explains them. */
export const WEBHOOK_HEADER_ROWS = [
  { key: 'id', name: WEBHOOK_HEADERS.id },
  { key: 'type', name: WEBHOOK_HEADERS.type },
  { key: 'timestamp', name: WEBHOOK_HEADERS.timestamp },
  { key: 'signature', name: WEBHOOK_HEADERS.signature },
] as const satisfies readonly { key: keyof typeof WEBHOOK_HEADERS; name: string }[];

/** An example `transfer.downloaded` event, typed by the contract so its shape cannot drift. */
export const EXAMPLE_EVENT: EventEnvelope<'transfer.downloaded', TransferDownloadedData> = {
  id: 'evt_01968b2e-75c0-74d2-8415-161f668a482d',
  type: 'transfer.downloaded',
  createdAt: '2025-05-01T09:30:00.000Z',
  data: {
    transferId: 'aB3dE5f',
    downloadId: '01968b2e-75c0-7769-947a-8396ee422b0f',
    country: 'DE',
    countryName: 'Germany',
    recipient: 'ana@example.com',
    origin: 'zip',
    fileName: 'video.mov',
    downloadedAt: '2025-05-01T09:30:00.000Z',
  },
};

/**
 * A test vector: the example event delivered at EXAMPLE_TIMESTAMP to an endpoint whose secret is
 * EXAMPLE_SECRET carries EXAMPLE_SIGNATURE (the unit test recomputes it with the server's signing
 * and checks it with the official Standard Webhooks library).
 */
export const EXAMPLE_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
export const EXAMPLE_TIMESTAMP = 1746091801;
export const EXAMPLE_SIGNATURE = 'v1,y8FcE2vQY9ewu7uwVjNErdHey3YtdzWAtAd2UQcdsPM=';

/** What a receiver gets: the POST's headers, and the envelope (indented here; it arrives as compact JSON). */
export const EXAMPLE_DELIVERY = `POST /sendbridge-events HTTP/1.1
content-type: application/json
${WEBHOOK_HEADERS.id}: ${EXAMPLE_EVENT.id}
${WEBHOOK_HEADERS.type}: ${EXAMPLE_EVENT.type}
${WEBHOOK_HEADERS.timestamp}: ${EXAMPLE_TIMESTAMP}
${WEBHOOK_HEADERS.signature}: ${EXAMPLE_SIGNATURE}

${JSON.stringify(EXAMPLE_EVENT, null, 2)}`;

/** The body of the registration examples: a receiver of two event types. */
const REGISTER_BODY: { url: string; events: EventType[]; description: string } = {
  url: 'https://example.com/sendbridge-events',
  events: ['transfer.created', 'transfer.downloaded'],
  description: 'Order system',
};

/** Registering an endpoint with a key that has the `webhooks` scope, then sending it a test event. */
export function webhookRegisterExamples(api: string) {
  return {
    curl: `# a key with the webhooks scope
curl -s -X POST "${api}/v1/webhooks" \\
  -H "Authorization: Bearer $SENDBRIDGE_KEY" -H 'content-type: application/json' \\
  -d '${JSON.stringify(REGISTER_BODY)}'
# -> 201 {"endpoint":{"id":"we_…","url":"${REGISTER_BODY.url}","events":[…],"enabled":true,…},"secret":"whsec_…"}
# the secret is in this answer only: store it where your receiver reads it

# then ask for a \`ping\` event to check your receiver (its delivery log: GET …/v1/webhooks/we_…/deliveries)
curl -s -X POST "${api}/v1/webhooks/we_…/test" -H "Authorization: Bearer $SENDBRIDGE_KEY"`,
    ts: `import { writeFile } from 'node:fs/promises';

// api() from the authentication example, with a key that has the webhooks scope
const { endpoint, secret } = await api<{ endpoint: { id: string }; secret: string }>('/v1/webhooks', {
  method: 'POST',
  body: JSON.stringify({
    url: '${REGISTER_BODY.url}',
    events: [${REGISTER_BODY.events.map((e) => `'${e}'`).join(', ')}],
    description: '${REGISTER_BODY.description}',
  }),
});
// the secret (whsec_…) is in this answer only: keep it for your receiver, never in your code
await writeFile('.sendbridge-webhook-secret', secret, { mode: 0o600 });

// a \`ping\` event to check your receiver
await api(\`/v1/webhooks/\${endpoint.id}/test\`, { method: 'POST' });`,
  };
}

/**
 * The verification function in TypeScript: Standard Webhooks' check written out with node:crypto
 * (the official `standardwebhooks` libraries do the same: docs/webhooks.md), with the contract's
 * header names and tolerance. The unit test compiles this very text and verifies the server's
 * signed headers with it.
 */
export const WEBHOOK_VERIFY_TS = `import { createHmac, timingSafeEqual } from 'node:crypto';

type Headers = Record<string, string | string[] | undefined>;

/**
 * Standard Webhooks: base64 HMAC-SHA256 of "id.timestamp.body", keyed with the secret's bytes (the base64 after whsec_).
 * rawBody: the request body as received (string or Buffer), before any JSON parsing; headers: lower-case names.
 */
export function verifySendBridgeWebhook(rawBody: string | Buffer, headers: Headers, secret: string, toleranceSeconds = ${SIGNATURE_TOLERANCE_SECONDS}): boolean {
  const id = String(headers['${WEBHOOK_HEADERS.id}'] ?? '');
  const timestamp = Number(headers['${WEBHOOK_HEADERS.timestamp}']);
  if (!id || !Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\`).update(rawBody).digest();
  // one v1,<base64> signature per valid secret: two while a rotated secret's grace period runs
  return String(headers['${WEBHOOK_HEADERS.signature}'] ?? '')
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
`;

/**
 * A receiver on node:http with verifySendBridgeWebhook: refuses what does not verify, handles
 * each event id once, answers 2xx at once. The unit test runs it against signed deliveries.
 */
export const WEBHOOK_RECEIVER_TS = `import { createServer } from 'node:http';

const SECRET = process.env.SENDBRIDGE_WEBHOOK_SECRET!;
const handled = new Set<string>(); // in production: a table with a unique key on the event id

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    if (!verifySendBridgeWebhook(raw, req.headers, SECRET)) {
      res.writeHead(400).end();
      return;
    }
    const event = JSON.parse(raw.toString('utf8')) as { id: string; type: string; data: Record<string, unknown> };
    // retries and redeliveries repeat the same id: act once, answer 2xx every time
    if (!handled.has(event.id)) {
      handled.add(event.id);
      console.log(event.type, event.data);
    }
    res.writeHead(204).end();
  });
}).listen(Number(process.env.PORT ?? 8080));
`;
