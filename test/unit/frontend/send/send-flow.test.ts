import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  UPLOAD_TOKEN_HEADER,
  type CreateTransferResponse,
  type PlannedFile,
  type UploadStateResponse,
} from '@domain/transfer-api';
import { cancelUpload, resumeTransfer, uploadNewTransfer, type UploadCallbacks } from '@/shared/upload/send-flow';
import type { PickedFile } from '@/shared/upload/picked-files';
import { findCheckpoint, saveCheckpoint, type CheckpointStorage } from '@/shared/upload/checkpoint';
import { UploadCancelledError, UploadFailedError, type UploadProgress } from '@/shared/upload/engine';

const ID = 'abc1234';
const TOKEN = 'U'.repeat(43);
const NOW = Date.UTC(2025, 4, 1, 12);

class MemoryStorage implements CheckpointStorage {
  readonly map = new Map<string, string>();
  getItem = (key: string) => this.map.get(key) ?? null;
  setItem = (key: string, value: string) => void this.map.set(key, value);
  removeItem = (key: string) => void this.map.delete(key);
}

interface ServerFile extends PlannedFile {
  uploaded: boolean;
}

/**
 * The transfer API and the bucket, in memory: apiFetch reaches it through the global fetch
 * (paths under /api), the engine's PUTs through fetchImpl.
 */
class FakeBackend {
  status: UploadStateResponse['status'] = 'uploading';
  readonly files: ServerFile[];
  readonly calls: string[] = [];
  readonly stored = new Map<string, string>();
  /** how many times each complete call answers 202 completing before it is done */
  completingAnswers = 0;
  private readonly asked = new Map<string, number>();
  /** 202 completing for the first `completingAnswers` calls of `what` */
  private stillCompleting(what: string): boolean {
    const n = (this.asked.get(what) ?? 0) + 1;
    this.asked.set(what, n);
    return n <= this.completingAnswers;
  }
  /** how a PUT answers; default 200 with an ETag */
  put: (url: string, body: string, signal: AbortSignal) => Promise<Response> = async () =>
    new Response('', { status: 200, headers: { etag: '"e"' } });

  constructor(files: { fileName: string; content: string; itemPath?: string }[]) {
    this.files = files.map((f, i) => ({
      fileId: `file${String(i).padStart(6, '0')}`,
      fileName: f.fileName,
      size: f.content.length,
      mode: 'single',
      url: `https://bucket.test/put/file${String(i).padStart(6, '0')}`,
      uploaded: false,
      ...(f.itemPath ? { itemPath: f.itemPath } : {}),
    }));
  }

  created(): CreateTransferResponse {
    return {
      id: ID,
      uploadToken: TOKEN,
      region: 'hongkong',
      sendAs: 'email',
      link: `https://app.test/w/${ID}`,
      expiryDate: NOW + 7 * 86_400_000,
      files: this.files.map(({ uploaded: _, ...plan }) => plan),
    };
  }

  readonly api = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const path = String(input).replace(/^\/api/, '');
    const method = init.method ?? 'GET';
    this.calls.push(`${method} ${path}`);
    const headers = init.headers as Record<string, string>;
    if (headers[UPLOAD_TOKEN_HEADER] !== TOKEN)
      return json(401, { error: { code: 'bad_token', message: 'Unauthorized' } });
    const base = `/transfers/${ID}`;
    if (path === `${base}/upload-state`) {
      return json(200, {
        id: ID,
        status: this.status,
        resumableUntil: NOW + 86_400_000,
        files: this.files.map((f) => ({ ...f, partsDone: [] })),
      });
    }
    const fileDone = new RegExp(`^${base}/files/(\\w+)/complete$`).exec(path);
    if (fileDone) {
      const file = this.files.find((f) => f.fileId === fileDone[1]);
      if (!file || !this.stored.has(file.url!))
        return json(409, { error: { code: 'not_uploaded', message: 'not uploaded' } });
      if (this.stillCompleting(file.fileId))
        return json(
          202,
          { fileId: file.fileId, size: file.size, state: 'completing', retryAfterSeconds: 3 },
          {
            'retry-after': '4',
          },
        );
      file.uploaded = true;
      return json(200, { fileId: file.fileId, size: file.size, state: 'complete' });
    }
    if (path === `${base}/sign`) {
      const req = JSON.parse(String(init.body)) as { fileId: string } | { fileIds: string[] };
      const urlOf = (id: string) => this.files.find((f) => f.fileId === id)!.url!;
      if ('fileIds' in req)
        return json(200, {
          files: req.fileIds.map((fileId) => ({ fileId, url: urlOf(fileId) })),
          expiresAt: Date.now() + 3_600_000,
        });
      return json(200, { fileId: req.fileId, url: urlOf(req.fileId), expiresAt: Date.now() + 3_600_000 });
    }
    if (path === `${base}/complete`) {
      if (this.files.some((f) => !f.uploaded))
        return json(409, { error: { code: 'incomplete', message: 'files missing' } });
      if (this.stillCompleting('transfer'))
        return json(202, { id: ID, state: 'completing', completing: [], retryAfterSeconds: 5 }, { 'retry-after': '5' });
      this.status = 'ready';
      return json(200, {
        id: ID,
        state: 'complete',
        link: `https://app.test/w/${ID}`,
        expiryDate: NOW + 7 * 86_400_000,
        recipients: ['bob@x.org'],
      });
    }
    if (path === `${base}/cancel`) {
      this.status = 'cancelled';
      return json(200, { cancelled: true });
    }
    return json(404, { error: { code: 'not_found', message: path } });
  };

  readonly bucket = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    // a part read once is sent as its bytes, a larger one as a slice of the file
    const body = init.body instanceof Blob ? await init.body.text() : new TextDecoder().decode(init.body as Uint8Array);
    this.calls.push(`PUT ${url}`);
    const res = await this.put(url, body, init.signal!);
    if (res.ok) this.stored.set(url, body);
    return res;
  }) as typeof fetch;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function picked(fileName: string, content: string, itemPath?: string): PickedFile {
  return { fileName, size: content.length, blob: new Blob([content]), ...(itemPath ? { itemPath } : {}) };
}

function callbacks(signal = new AbortController().signal) {
  const progress: UploadProgress[] = [];
  const cb: UploadCallbacks = { signal, onProgress: (p) => progress.push(p), onWarning: () => undefined };
  return { cb, progress };
}

let backend: FakeBackend;
let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  backend = new FakeBackend([
    { fileName: 'a.txt', content: 'alpha' },
    { fileName: 'b.txt', content: 'bravo!', itemPath: 'docs/b.txt' },
  ]);
  vi.stubGlobal('fetch', backend.api);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const files = () => [picked('a.txt', 'alpha'), picked('b.txt', 'bravo!', 'docs/b.txt')];

describe('sending a new transfer', () => {
  it('leaves a checkpoint before the first byte, uploads each file, completes and forgets the checkpoint', async () => {
    const seenAtFirstPut: (string | undefined)[] = [];
    backend.put = async () => {
      seenAtFirstPut.push(findCheckpoint(files(), Date.now(), storage)?.id);
      return new Response('', { status: 200, headers: { etag: '"e"' } });
    };
    const { cb, progress } = callbacks();

    const done = await uploadNewTransfer(backend.created(), files(), cb, { storage, fetchImpl: backend.bucket });

    expect(done).toEqual({
      id: ID,
      state: 'complete',
      link: `https://app.test/w/${ID}`,
      expiryDate: NOW + 7 * 86_400_000,
      recipients: ['bob@x.org'],
    });
    expect(seenAtFirstPut[0]).toBe(ID);
    expect([...backend.stored.values()].sort()).toEqual(['alpha', 'bravo!']);
    expect(backend.status).toBe('ready');
    expect(findCheckpoint(files(), Date.now(), storage)).toBeNull();
    expect(progress.at(-1)).toMatchObject({ bytesDone: 11, bytesTotal: 11, filesDone: 2, filesTotal: 2 });
  });

  it('waits while the server answers completing (202) for the files and the transfer, honouring Retry-After', async () => {
    backend.completingAnswers = 2;
    const waits: Array<[number, number | undefined]> = [];
    const { cb, progress } = callbacks();

    const done = await uploadNewTransfer(backend.created(), files(), cb, {
      storage,
      fetchImpl: backend.bucket,
      completionPollDelayMs: (poll, retryAfter) => {
        waits.push([poll, retryAfter]);
        return 1;
      },
    });

    expect(done).toMatchObject({ id: ID, state: 'complete', recipients: ['bob@x.org'] });
    expect(backend.status).toBe('ready');
    const completes = backend.calls.filter((c) => c.endsWith('/complete'));
    // each file and the transfer asked three times: twice completing, then done
    expect(completes).toHaveLength(9);
    // the header wins over the body's copy; polls count from 1 for each file and the transfer
    // (the two files complete side by side: their polls are compared as a set)
    expect(
      waits
        .filter(([, r]) => r === 4)
        .map(([poll]) => poll)
        .sort(),
    ).toEqual([1, 1, 2, 2]);
    expect(waits.filter(([, r]) => r === 5)).toEqual([
      [1, 5],
      [2, 5],
    ]);
    expect(findCheckpoint(files(), Date.now(), storage)).toBeNull();
    expect(progress.at(-1)).toMatchObject({ phase: 'almost-done', filesDone: 2 });
  });

  it('a file that fails its last try stops the send and keeps the checkpoint for resuming', async () => {
    backend.put = async () => new Response('<Error><Code>InternalError</Code></Error>', { status: 500 });
    const { cb } = callbacks();

    const sent = uploadNewTransfer(backend.created(), files(), cb, {
      storage,
      fetchImpl: backend.bucket,
      retryDelayMs: () => 0,
    });

    await expect(sent).rejects.toBeInstanceOf(UploadFailedError);
    expect(backend.calls).not.toContain(`POST /transfers/${ID}/complete`);
    expect(findCheckpoint(files(), Date.now(), storage)?.id).toBe(ID);
  });

  it('a confirmed cancel aborts the upload, tells the server and drops the checkpoint', async () => {
    const controller = new AbortController();
    let started!: () => void;
    const putStarted = new Promise<void>((resolve) => (started = resolve));
    backend.put = (_url, _body, signal) =>
      new Promise((_, reject) => {
        started();
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
      });
    const { cb } = callbacks(controller.signal);

    const sent = uploadNewTransfer(backend.created(), files(), cb, { storage, fetchImpl: backend.bucket });
    await putStarted;
    controller.abort();
    await expect(sent).rejects.toBeInstanceOf(UploadCancelledError);
    await cancelUpload({ id: ID, uploadToken: TOKEN }, { storage });

    expect(backend.status).toBe('cancelled');
    expect(findCheckpoint(files(), Date.now(), storage)).toBeNull();
  });
});

describe('resuming', () => {
  function checkpoint() {
    const cp = {
      id: ID,
      uploadToken: TOKEN,
      createdAt: Date.now() - 60_000,
      files: backend.files.map(({ fileId, fileName, size, itemPath }) => ({
        fileId,
        fileName,
        size,
        ...(itemPath ? { itemPath } : {}),
      })),
    };
    saveCheckpoint(cp, storage);
    return cp;
  }

  it("sends only what the server lacks, as 'Resuming Upload...'", async () => {
    const cp = checkpoint();
    backend.files[0]!.uploaded = true;
    backend.stored.set(backend.files[0]!.url!, 'alpha');
    const { cb, progress } = callbacks();

    const done = await resumeTransfer(cp, files(), cb, { storage, fetchImpl: backend.bucket, now: () => NOW });

    expect(done?.link).toBe(`https://app.test/w/${ID}`);
    expect(backend.calls.filter((c) => c.startsWith('PUT'))).toEqual([`PUT ${backend.files[1]!.url}`]);
    expect(progress[0]?.phase).toBe('resuming');
    expect(findCheckpoint(files(), Date.now(), storage)).toBeNull();
  });

  it('does not resume a transfer that is no longer uploading, and forgets its checkpoint', async () => {
    const cp = checkpoint();
    backend.status = 'cancelled';
    const { cb } = callbacks();

    expect(await resumeTransfer(cp, files(), cb, { storage, fetchImpl: backend.bucket, now: () => NOW })).toBeNull();
    expect(backend.calls.filter((c) => c.startsWith('PUT'))).toEqual([]);
    expect(findCheckpoint(files(), Date.now(), storage)).toBeNull();
  });

  it('does not resume once the server says the window has passed', async () => {
    const cp = checkpoint();
    const { cb } = callbacks();

    expect(
      await resumeTransfer(cp, files(), cb, { storage, fetchImpl: backend.bucket, now: () => NOW + 2 * 86_400_000 }),
    ).toBeNull();
    expect(backend.calls.filter((c) => c.startsWith('PUT'))).toEqual([]);
  });
});
