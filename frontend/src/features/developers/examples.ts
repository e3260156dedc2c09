/**
 * issue 17: the /developers page's code examples (curl and TypeScript), for the deployment the
 * page is served by (`api` is the document's server URL, `https://…/api`). Code stays code in
 * every language; the words around it come from the `api` catalogue (`docs.…`).
 */
import { API_KEY_RATE_LIMIT } from '@domain/api-key-scopes';

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
export const KEY_ERROR_CODES = ['invalid_api_key', 'key_scope_missing', 'api_keys_not_allowed', 'rate_limited', 'invalid_request', 'transfer_not_found'] as const;
