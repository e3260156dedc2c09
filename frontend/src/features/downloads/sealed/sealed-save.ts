/**
 * Saving an opened (decrypted) stream to disk without ever saving a part of it as if whole:
 * 1. the service worker (public/e2e-download-sw.js) answers a same-origin download with the
 *    stream, so the browser's download manager writes it as it arrives; a stream that errors
 *    fails the download, and the browser keeps no finished file;
 * 2. the File System Access API: the writable commits only on close, and an error aborts it;
 * 3. elsewhere the file is opened whole in memory first, up to SEALED_BLOB_SAVE_MAX_BYTES.
 */
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { collectBlob } from './sealed-stream';
import { SEALED_BLOB_SAVE_MAX_BYTES, saveMethodsFor } from './sealed-limits';

const WORKER_URL = '/e2e-download-sw.js';
const WORKER_SCOPE = '/e2e-download/';
/** How long the worker may take to take the stream before this save gives up. */
const HANDOVER_MS = 10_000;
/** A message now and then keeps the worker running through a long download. */
const KEEPALIVE_MS = 10_000;

/** Too large to save in this browser, which can only save from memory. */
export class SaveTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`too large to save in this browser (over ${limit} bytes)`);
    this.name = 'SaveTooLargeError';
  }
}

/** Whether this browser can hand a stream to a worker (transferable streams). */
function streamsTransfer(): boolean {
  try {
    const stream = new ReadableStream();
    new MessageChannel().port1.postMessage(stream, [stream as unknown as Transferable]);
    return true;
  } catch {
    return false;
  }
}

let worker: Promise<ServiceWorker | null> | undefined;

/** The download worker, registered on first use and active; null where it cannot run. */
function downloadWorker(): Promise<ServiceWorker | null> {
  worker ??= (async () => {
    if (!('serviceWorker' in navigator) || !window.isSecureContext || !streamsTransfer()) return null;
    try {
      const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE });
      const candidate = registration.active ?? registration.waiting ?? registration.installing;
      if (!candidate) return null;
      if (candidate.state !== 'activated') {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('worker did not activate')), HANDOVER_MS);
          candidate.addEventListener('statechange', () => {
            if (candidate.state === 'activated') {
              clearTimeout(timer);
              resolve();
            } else if (candidate.state === 'redundant') {
              clearTimeout(timer);
              reject(new Error('worker redundant'));
            }
          });
        });
      }
      return registration.active ?? candidate;
    } catch {
      return null;
    }
  })();
  return worker;
}

function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function saveWithWorker(
  sw: ServiceWorker,
  name: string,
  size: number | undefined,
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): Promise<void> {
  let settle!: { resolve: () => void; reject: (e: unknown) => void };
  const finished = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // the stream pulls its first chunk at once, before the handover is awaited: a changed first chunk
  // rejects `finished` while nothing awaits it yet, which must not surface as an unhandled rejection
  finished.catch(() => undefined);
  const reader = stream.getReader();
  // what the browser reads through the worker: it tells this page when the file is whole or failed
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        // a read cut short by the page going away must fail the download, never end it as whole
        if (done && signal.aborted) throw new DOMException('The page was closed', 'AbortError');
        if (done) {
          controller.close();
          settle.resolve();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        settle.reject(error);
      }
    },
    cancel(reason) {
      settle.reject(new DOMException('The download was cancelled', 'AbortError'));
      return reader.cancel(reason);
    },
  });
  const onAbort = () => void reader.cancel('page closed').catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });

  const channel = new MessageChannel();
  const taken = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the download worker did not answer')), HANDOVER_MS);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const id = randomId();
  sw.postMessage({ type: 'sendbridge-e2e-save', id, name, size, stream: body }, [
    body as unknown as Transferable,
    channel.port2,
  ]);
  await taken;

  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = name;
  frame.src = `${WORKER_SCOPE}${id}`;
  document.body.append(frame);
  const keepAlive = setInterval(() => sw.postMessage({ type: 'sendbridge-e2e-ping' }), KEEPALIVE_MS);
  try {
    await finished;
  } finally {
    clearInterval(keepAlive);
    signal.removeEventListener('abort', onAbort);
    // the download manager has the bytes (or the failure) by now; the frame has served its turn
    setTimeout(() => frame.remove(), 5_000);
  }
}

interface SavePicker {
  showSaveFilePicker(options: { suggestedName: string }): Promise<{
    createWritable(): Promise<WritableStream<Uint8Array>>;
  }>;
}

async function saveWithPicker(name: string, open: () => Promise<ReadableStream<Uint8Array>>, signal: AbortSignal) {
  const handle = await (window as unknown as SavePicker).showSaveFilePicker({ suggestedName: name });
  const writable = await handle.createWritable();
  // pipeTo aborts the writable on an error: its temporary file is dropped, the target stays untouched
  await (await open()).pipeTo(writable, { signal });
}

async function saveFromMemory(name: string, stream: ReadableStream<Uint8Array>): Promise<void> {
  const blob = await collectBlob(stream, 'application/octet-stream');
  const url = URL.createObjectURL(blob);
  startBrowserDownload(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Saves the stream `open` gives (opened only once a way to save it is ready) as `name`, of
 * `size` bytes when known. Resolves once the whole file is handed to the browser; rejects with
 * the stream's own error (E2eTamperError for a changed file) when it fails.
 */
export async function saveOpened(
  name: string,
  size: number,
  open: () => Promise<ReadableStream<Uint8Array>>,
  signal: AbortSignal,
): Promise<void> {
  const sw = await downloadWorker();
  const methods = saveMethodsFor(
    { serviceWorker: sw !== null, fileSystemAccess: 'showSaveFilePicker' in window },
    size,
  );
  const method = methods[0];
  if (method === undefined) throw new SaveTooLargeError(SEALED_BLOB_SAVE_MAX_BYTES);
  if (method === 'worker' && sw) return saveWithWorker(sw, name, size, await open(), signal);
  if (method === 'picker') return saveWithPicker(name, open, signal);
  return saveFromMemory(name, await open());
}
