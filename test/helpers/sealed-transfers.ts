import { expect } from 'vitest';
import {
  cipherSizeOf,
  fileKeyOf,
  keyCheckOf,
  keyFromPassphrase,
  newFileParams,
  newPassphraseParams,
  newTransferKey,
  sealRange,
} from '../../functions/domain/e2e-format';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { LocalApp } from '../../scripts/local/app';
import { api } from './local-app';
import { bearer, completeTransfer, json, uploadAll, type TestUser } from './transfers';

export interface Fixture {
  readonly fileName: string;
  readonly itemPath?: string;
  readonly bytes: Buffer;
  /** the sender's thumbnail (WebP), sealed and uploaded beside the file */
  readonly thumbnail?: Buffer;
}

export interface Sealed {
  readonly t: CreateTransferResponse;
  readonly key: Uint8Array;
  readonly path: string;
}

/**
 * Seals `files` with the format's reference module, as the send form and the CLI seal them, and
 * sends them by link (the key returned; open `path` + `#` + keyFragment(key)) or, given a
 * passphrase, in passphrase mode (cheapest allowed Argon2id cost, to keep tests quick); each
 * file's thumbnail, when given, is sealed and uploaded as the sender's browser does.
 */
export async function sendSealed(
  app: LocalApp,
  owner: TestUser,
  files: readonly Fixture[],
  passphrase?: string,
): Promise<Sealed> {
  const kdf = passphrase ? newPassphraseParams({ memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 }) : undefined;
  const key = passphrase && kdf ? await keyFromPassphrase(passphrase, kdf) : newTransferKey();
  const params = files.map((f) => newFileParams(f.bytes.length));
  const res = await api(
    app,
    '/me/transfers',
    json(
      {
        sendAs: 'link',
        e2e: { v: 1, mode: kdf ? 'passphrase' : 'link', ...(kdf ? { kdf } : {}), check: await keyCheckOf(key) },
        fileObjects: files.map((f, i) => ({
          fileName: f.fileName,
          ...(f.itemPath ? { itemPath: f.itemPath } : {}),
          size: cipherSizeOf(f.bytes.length),
          e2e: { salt: params[i]!.salt, plainSize: f.bytes.length },
        })),
      },
      bearer(owner),
    ),
  );
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  const sealed = new Map<string, Uint8Array>();
  for (const [i, f] of files.entries()) {
    const fileKey = await fileKeyOf(key, params[i]!.salt);
    sealed.set(f.itemPath ?? f.fileName, await sealRange(fileKey, f.bytes.length, 0, f.bytes));
  }
  await uploadAll(app, t, sealed);
  for (const [i, f] of files.entries()) {
    if (!f.thumbnail) continue;
    const planned = t.files.find((p) => (p.itemPath ?? p.fileName) === (f.itemPath ?? f.fileName))!;
    const thumbKey = await fileKeyOf(key, params[i]!.salt, 'thumbnail');
    const body = await sealRange(thumbKey, f.thumbnail.length, 0, f.thumbnail);
    const headers = { 'x-upload-token': t.uploadToken };
    const signed = await api(
      app,
      `/transfers/${t.id}/files/${planned.fileId}/thumbnail`,
      json({ size: body.length }, headers),
    );
    expect(signed.status, signed.text).toBe(200);
    const put = await fetch((signed.json as { url: string }).url, {
      method: 'PUT',
      body: body as BodyInit,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status).toBe(200);
    const done = await api(app, `/transfers/${t.id}/files/${planned.fileId}/thumbnail/complete`, {
      method: 'POST',
      headers,
    });
    expect(done.status, done.text).toBe(200);
  }
  expect((await completeTransfer(app, t)).status).toBe(200);
  return { t, key, path: new URL(t.link).pathname };
}
