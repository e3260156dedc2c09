/**
 * Lambda's 6 MB answer against a transfer of 5,000 files (the largest plan's limit), through the
 * local gateway, which refuses an answer over 6 MB as AWS does: the create carries every plan but
 * only the first 100 presigned PUTs, /sign gives the others, and the previews come in pages of
 * 100. The local functions sign with a Lambda-sized session token, so every URL has AWS's size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import { MAX_LAMBDA_RESPONSE_BYTES } from '../../scripts/local/gateway/server';
import {
  SIGNED_URLS_PER_ANSWER,
  type CreateTransferResponse,
  type SignManyResponse,
  type SignResponse,
  type UploadStateResponse,
} from '../../functions/domain/transfer-api';
import { PREVIEWS_PER_PAGE, type PreviewsResponse } from '../../functions/domain/previews';
import { collectPreviewPages } from '../../functions/domain/preview-pages';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, completeTransfer, createUser, json, type TestUser } from '../helpers/transfers';

const FILES = 5000;
const CONCURRENCY = 16;

let app: LocalApp;
let owner: TestUser;
const sizes: Record<string, number> = {};

function measured(name: string, res: { status: number; text: string }): number {
  const bytes = Buffer.byteLength(res.text);
  sizes[name] = Math.max(sizes[name] ?? 0, bytes);
  return bytes;
}

async function inParallel<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'many-files@example.com', 'teamelite');
}, 300_000);

afterAll(async () => {
  await app?.stop();
  // measured sizes, for the record
  console.info(`answer sizes (bytes): ${JSON.stringify(sizes)}`);
});

describe(`a transfer of ${FILES} files stays inside Lambda's 6 MB answer`, () => {
  let t: CreateTransferResponse;

  it('the create answers every plan with the first 100 URLs, each of AWS size', async () => {
    const fileObjects = Array.from({ length: FILES }, (_, i) => ({
      fileName: `photo-${String(i).padStart(4, '0')}.jpg`,
      size: 1,
    }));
    const res = await api(app, '/me/transfers', json({ sendAs: 'link', fileObjects }, bearer(owner)));
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    expect(measured('create', res)).toBeLessThanOrEqual(MAX_LAMBDA_RESPONSE_BYTES);
    t = res.json as CreateTransferResponse;
    expect(t.files).toHaveLength(FILES);
    expect(new Set(t.files.map((f) => f.fileId)).size).toBe(FILES);
    const urls = t.files.flatMap((f) => (f.url ? [f.url] : []));
    expect(urls).toHaveLength(SIGNED_URLS_PER_ANSWER);
    // the Lambda-sized session token is in every URL: one URL per file would not have fit
    expect(urls[0]).toContain('X-Amz-Security-Token=');
    expect(urls[0]!.length).toBeGreaterThan(1500);
    expect(urls[0]!.length * FILES).toBeGreaterThan(MAX_LAMBDA_RESPONSE_BYTES);
  });

  it('uploads every file, signing the ones without a URL through /sign, 100 a call (s3rver takes the session-token URLs), and sends it', async () => {
    const headers = { 'x-upload-token': t.uploadToken };
    const state = await api(app, `/transfers/${t.id}/upload-state`, { headers });
    expect(state.status).toBe(200);
    expect(measured('upload-state', state)).toBeLessThanOrEqual(MAX_LAMBDA_RESPONSE_BYTES);
    expect((state.json as UploadStateResponse).files).toHaveLength(FILES);

    const urls = new Map(t.files.flatMap((f) => (f.url ? [[f.fileId, f.url] as const] : [])));
    // one file alone, as a retry asks
    const unsigned = t.files.filter((f) => !f.url).map((f) => f.fileId);
    const one = await api(app, `/transfers/${t.id}/sign`, json({ fileId: unsigned[0] }, headers));
    expect(one.status, one.text).toBe(200);
    measured('sign one', one);
    urls.set(unsigned[0]!, (one.json as SignResponse).url!);
    // the rest 100 at a time, as the upload engine asks
    for (let i = 1; i < unsigned.length; i += SIGNED_URLS_PER_ANSWER) {
      const fileIds = unsigned.slice(i, i + SIGNED_URLS_PER_ANSWER);
      const batch = await api(app, `/transfers/${t.id}/sign`, json({ fileIds }, headers));
      expect(batch.status, batch.text).toBe(200);
      expect(measured('sign 100', batch)).toBeLessThanOrEqual(MAX_LAMBDA_RESPONSE_BYTES);
      for (const f of (batch.json as SignManyResponse).files) urls.set(f.fileId, f.url);
    }
    expect(urls.size).toBe(FILES);
    const tooMany = await api(
      app,
      `/transfers/${t.id}/sign`,
      json({ fileIds: unsigned.slice(0, SIGNED_URLS_PER_ANSWER + 1) }, headers),
    );
    expect(tooMany.status).toBe(400);

    await inParallel(t.files, async (f) => {
      const put = await fetch(urls.get(f.fileId)!, { method: 'PUT', body: 'x' });
      expect(put.status, await put.text()).toBe(200);
    });
    // The first 100 complete through the gateway; the others are marked in the table as that
    // route marks them: its ~8 table operations a file (40,000 here) take longer than a test
    // may on a shared machine, and it is tested on its own in transfers-send.
    await inParallel(t.files.slice(0, SIGNED_URLS_PER_ANSWER), async (f) => {
      const done = await api(app, `/transfers/${t.id}/files/${f.fileId}/complete`, { method: 'POST', headers });
      expect(done.status, done.text).toBe(200);
    });
    // a batch naming files already uploaded signs only the others
    const mixed = await api(
      app,
      `/transfers/${t.id}/sign`,
      json({ fileIds: [t.files[0]!.fileId, unsigned[1]!] }, headers),
    );
    expect(mixed.status, mixed.text).toBe(200);
    expect((mixed.json as SignManyResponse).files.map((f) => f.fileId)).toEqual([unsigned[1]]);

    await inParallel(t.files.slice(SIGNED_URLS_PER_ANSWER), async (f) => {
      await dynamo().send(
        new UpdateCommand({
          TableName: app.stack.env.TABLE_NAME,
          Key: keys.transferFile(t.id, f.fileId),
          UpdateExpression: 'SET #s = :u, scanStatus = :c',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':u': 'uploaded', ':c': 'clean' },
        }),
      );
    });
    const sent = await completeTransfer(app, t);
    expect(sent.status, sent.text).toBe(200);
  }, 600_000);

  it('the download page gets every preview in pages of 100', async () => {
    let pages = 0;
    const all = await collectPreviewPages(async (cursor) => {
      const res = await api(app, '/getDownload/previews', json({ id: t.id, ...(cursor ? { cursor } : {}) }));
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(measured('download previews page', res)).toBeLessThanOrEqual(MAX_LAMBDA_RESPONSE_BYTES);
      const page = res.json as PreviewsResponse;
      expect(page.files.length).toBeLessThanOrEqual(PREVIEWS_PER_PAGE);
      pages += 1;
      return page;
    });
    expect(pages).toBe(FILES / PREVIEWS_PER_PAGE);
    expect(new Set(all.files.map((f) => f.fileId))).toEqual(new Set(t.files.map((f) => f.fileId)));
    expect(all.files.every((f) => f.kind === 'image' && f.url?.includes('X-Amz-Security-Token='))).toBe(true);
  }, 300_000);

  it("the TransferModal gets every preview in pages of 100; a cursor that is not the transfer's file is a 400", async () => {
    await app.gateway.idle();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api(app, `/transfers/${t.id}/previews${cursor ? `?cursor=${cursor}` : ''}`, {
        headers: bearer(owner),
      });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(measured('modal previews page', res)).toBeLessThanOrEqual(MAX_LAMBDA_RESPONSE_BYTES);
      const page = res.json as PreviewsResponse;
      seen.push(...page.files.map((f) => f.fileId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(FILES);
    expect(new Set(seen).size).toBe(FILES);

    const bad = await api(app, `/transfers/${t.id}/previews?cursor=ZZZZZZZZZZ`, { headers: bearer(owner) });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_cursor');
  }, 300_000);
});
