/**
 * fetch through the bench's shaped line (line-child.ts): requests to an origin the line serves
 * go to the line's port with the origin's own Host header (so presigned URLs still verify), by
 * node:http, since fetch does not let a caller set Host. Other origins use fetch itself.
 */
import http from 'node:http';
import { Readable } from 'node:stream';

/** origin (e.g. http://127.0.0.1:4569) -> the line's port for it */
export type LineRoutes = Readonly<Record<string, number>>;

const NULL_BODY = new Set([101, 204, 205, 304]);

export function lineFetch(routes: LineRoutes, direct: typeof fetch): typeof fetch {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const port = routes[url.origin];
    if (port === undefined) return direct(input, init);
    const headers: Record<string, string> = { host: url.host };
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const body = init?.body;
    let payload: Buffer | Blob | undefined;
    if (typeof body === 'string') payload = Buffer.from(body);
    else if (body instanceof Uint8Array) payload = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    else if (body instanceof Blob) payload = body;
    else if (body !== undefined && body !== null) throw new TypeError('line fetch takes string, bytes or Blob bodies');
    if (payload) headers['content-length'] = String(payload instanceof Blob ? payload.size : payload.length);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: init?.method ?? 'GET',
          path: `${url.pathname}${url.search}`,
          headers,
          agent,
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const out = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
            }
            const status = res.statusCode ?? 502;
            resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers: out }));
          });
        },
      );
      req.on('error', reject);
      if (payload instanceof Blob)
        Readable.fromWeb(payload.stream() as import('node:stream/web').ReadableStream).pipe(req);
      else req.end(payload);
    });
  };
}
