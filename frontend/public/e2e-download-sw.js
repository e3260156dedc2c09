/**
 * Saves an end-to-end encrypted file to disk as the download page opens it. The page (never
 * controlled by this worker: its scope is only /e2e-download/) hands over the decrypted
 * ReadableStream with a one-time id, then opens /e2e-download/<id> in a hidden frame; the
 * answer here is that stream as an attachment, so the browser's download manager writes it to
 * disk as it arrives. A stream that errors (a changed chunk) makes the download fail, and the
 * browser keeps no finished file. No key ever reaches this worker: only opened bytes.
 * Served at a stable URL (frontend/public) and never cached long (docs/e2e-format.md).
 */
const SCOPE_PATH = '/e2e-download/';
/** id -> { stream, name, size } awaiting its request */
const pending = new Map();

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  const data = event.data;
  if (data?.type !== 'sendbridge-e2e-save') return;
  if (typeof data.id !== 'string' || !(data.stream instanceof ReadableStream)) return;
  pending.set(data.id, { stream: data.stream, name: String(data.name), size: data.size });
  // a request that never comes (the frame was blocked) must not keep the stream forever
  setTimeout(() => {
    const left = pending.get(data.id);
    if (!left) return;
    pending.delete(data.id);
    left.stream.cancel('not requested').catch(() => undefined);
  }, 60_000);
  if (event.ports[0]) event.ports[0].postMessage({ ok: true });
});

/** RFC 6266 / 5987: an ASCII stand-in and the exact UTF-8 name. */
function disposition(name) {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE_PATH)) return;
  const id = url.pathname.slice(SCOPE_PATH.length);
  const entry = pending.get(id);
  if (!entry) {
    event.respondWith(new Response('This download is no longer available.', { status: 404 }));
    return;
  }
  pending.delete(id);
  // kept alive while the body streams: the worker must not be stopped mid-file
  let finished;
  const done = new Promise((resolve) => {
    finished = resolve;
  });
  const reader = entry.stream.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          controller.close();
          finished();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        finished();
      }
    },
    cancel(reason) {
      finished();
      return reader.cancel(reason);
    },
  });
  const headers = {
    'content-type': 'application/octet-stream',
    'content-disposition': disposition(entry.name),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
  if (typeof entry.size === 'number' && Number.isSafeInteger(entry.size))
    headers['content-length'] = String(entry.size);
  event.respondWith(new Response(body, { headers }));
  event.waitUntil(done);
});
