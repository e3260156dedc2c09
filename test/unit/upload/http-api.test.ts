import { afterEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_TOKEN_HEADER } from '../../../functions/domain/transfer-api';
import { createHttpUploadApi } from '../../../frontend/src/shared/upload/http-api';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The browser's fetch at the network boundary: records each request and answers from `reply`. */
function stubFetch(reply: (url: string) => Response) {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return reply(url);
  });
  return seen;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const TOKEN = 'k'.repeat(43);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the upload API over HTTP', () => {
  it('calls the transfer routes with the upload token', async () => {
    const seen = stubFetch((url) => {
      if (url.endsWith('/sign'))
        return json({ fileId: 'fileAAAAAA', parts: [{ partNumber: 1, url: 'https://s3/x' }], expiresAt: 1 });
      if (url.endsWith('/upload-state'))
        return json({ id: 'Ab3dE7x', status: 'uploading', resumableUntil: 2, files: [] });
      return json({ ok: true });
    });
    const api = createHttpUploadApi('Ab3dE7x', TOKEN);

    expect(await api.sign({ fileId: 'fileAAAAAA', partNumbers: [1] })).toEqual({
      fileId: 'fileAAAAAA',
      parts: [{ partNumber: 1, url: 'https://s3/x' }],
      expiresAt: 1,
    });
    await api.recordPart({ fileId: 'fileAAAAAA', partNumber: 1, etag: '"e"', size: 5, crc32: 123 });
    await api.completeFile('fileAAAAAA', undefined, { crc32: 0xffff_ffff });
    expect((await api.uploadState()).status).toBe('uploading');

    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /api/transfers/Ab3dE7x/sign',
      'POST /api/transfers/Ab3dE7x/parts',
      'POST /api/transfers/Ab3dE7x/files/fileAAAAAA/complete',
      'GET /api/transfers/Ab3dE7x/upload-state',
    ]);
    expect(seen.every((s) => s.headers[UPLOAD_TOKEN_HEADER] === TOKEN)).toBe(true);
    expect(seen[0]!.body).toEqual({ fileId: 'fileAAAAAA', partNumbers: [1] });
    expect(seen[1]!.body).toEqual({ fileId: 'fileAAAAAA', partNumber: 1, etag: '"e"', size: 5, crc32: 123 });
    expect(seen[2]!.body).toEqual({ crc32: 0xffff_ffff });
  });

  it('surfaces a refusal with its status, which the engine treats as final', async () => {
    stubFetch(() => json({ error: { code: 'transfer_cancelled', message: 'This upload was cancelled' } }, 409));
    const api = createHttpUploadApi('Ab3dE7x', TOKEN);
    await expect(api.sign({ fileId: 'fileAAAAAA' })).rejects.toMatchObject({ status: 409, code: 'transfer_cancelled' });
  });
});
