import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  E2eTamperError,
  E2E_CHUNK_BYTES,
  E2E_TAG_BYTES,
  fileKeyOf,
  keyCheckOf,
  keyFragment,
  newFileParams,
  newTransferKey,
  openingStream,
  sealRange,
} from '@domain/e2e-format';
import type { DownloadFile } from '@domain/transfer-api';
import { keyFromLink } from '@/features/downloads/sealed/sealed-key';
import {
  SEALED_BLOB_SAVE_MAX_BYTES,
  SEALED_PLAY_MAX_BYTES,
  saveMethodsFor,
} from '@/features/downloads/sealed/sealed-limits';
import { collectBlob, isTamper } from '@/features/downloads/sealed/sealed-stream';
import { zipEntries, zipNameOf, zipSizeOf, zipStream } from '@/features/downloads/sealed/sealed-zip';
import en from '@/i18n/locales/sealed/en.json';
import { LANGUAGES } from '@/i18n/languages';

const scratch = mkdtempSync(path.join(tmpdir(), 'sealed-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const key = newTransferKey();

function bytesOf(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 131 + seed * 7) % 251);
}

/** A sealed file as the page lists it, and a stream that opens its stored bytes (changed at `flip` when given). */
async function sealedFile(name: string, plain: Uint8Array, itemPath?: string, flip?: number) {
  const params = newFileParams(plain.length);
  const stored = await sealRange(await fileKeyOf(key, params.salt), plain.length, 0, plain);
  if (flip !== undefined) stored[flip] = (stored[flip] ?? 0) ^ 1;
  const file: DownloadFile = {
    fileId: `f-${name}`,
    fileName: name,
    ...(itemPath ? { itemPath } : {}),
    size: stored.length,
    e2e: { salt: params.salt, plainSize: plain.length },
  };
  const open = async () =>
    new Blob([stored as BlobPart]).stream().pipeThrough(openingStream(await fileKeyOf(key, params.salt), plain.length));
  return { file, plain, open };
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    parts.push(value);
  }
}

describe('the key of a link', () => {
  it('is read from the fragment and checked against the transfer', async () => {
    const check = await keyCheckOf(key);
    const found = await keyFromLink(`#${keyFragment(key)}`, check);
    expect(found.kind).toBe('ok');
    expect(found.kind === 'ok' && Buffer.from(found.key).equals(Buffer.from(key))).toBe(true);
  });

  it('missing, malformed, cut or another transfer’s: told apart as missing or damaged', async () => {
    const check = await keyCheckOf(key);
    expect((await keyFromLink('', check)).kind).toBe('missing');
    expect((await keyFromLink('#other=1', check)).kind).toBe('missing');
    expect((await keyFromLink('#k=', check)).kind).toBe('damaged');
    expect((await keyFromLink('#k=not*base64', check)).kind).toBe('damaged');
    expect((await keyFromLink(`#${keyFragment(key).slice(0, -3)}`, check)).kind).toBe('damaged');
    expect((await keyFromLink(`#${keyFragment(newTransferKey())}`, check)).kind).toBe('damaged');
  });
});

describe('how a decrypted file is saved', () => {
  it('streams to disk where it can, from memory only up to the stated limit', () => {
    const all = { serviceWorker: true, fileSystemAccess: true };
    expect(saveMethodsFor(all, 10)).toEqual(['worker', 'picker', 'blob']);
    expect(saveMethodsFor(all, SEALED_BLOB_SAVE_MAX_BYTES + 1)).toEqual(['worker', 'picker']);
    expect(saveMethodsFor({ serviceWorker: false, fileSystemAccess: false }, SEALED_BLOB_SAVE_MAX_BYTES)).toEqual([
      'blob',
    ]);
    expect(saveMethodsFor({ serviceWorker: false, fileSystemAccess: false }, SEALED_BLOB_SAVE_MAX_BYTES + 1)).toEqual(
      [],
    );
  });

  it('states its limits in the units the app shows', () => {
    expect(SEALED_PLAY_MAX_BYTES).toBe(256_000_000);
    expect(SEALED_BLOB_SAVE_MAX_BYTES).toBe(1_000_000_000);
  });

  it('a changed chunk fails the whole read with the tamper error, never a shorter file', async () => {
    const { open } = await sealedFile('a.bin', bytesOf(2 * E2E_CHUNK_BYTES + 5, 1), undefined, E2E_CHUNK_BYTES + 40);
    const failure = await collectBlob(await open(), 'application/octet-stream').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(E2eTamperError);
    expect(isTamper(failure)).toBe(true);
    expect(isTamper(new TypeError('network'))).toBe(false);
  });
});

describe('the ZIP of an encrypted transfer, built in the browser', () => {
  it('names entries as the server’s archive does: folders kept, unsafe names made safe, duplicates numbered', () => {
    const file = (fileName: string, itemPath?: string): DownloadFile => ({
      fileId: fileName,
      fileName,
      ...(itemPath ? { itemPath } : {}),
      size: 32,
      e2e: { salt: 'AAAAAAAAAAAAAAAAAAAAAA', plainSize: 16 },
    });
    const entries = zipEntries([
      file('a.jpg', 'trip/a.jpg'),
      file('a.jpg'),
      file('A.JPG'),
      file('x.txt', '../../etc/x.txt'),
      file('con.txt'),
    ]);
    expect(entries.map((e) => e.name)).toEqual(['trip/a.jpg', 'a.jpg', 'A (1).JPG', 'etc/x.txt', '_con.txt']);
    // the plaintext's size, not the stored one
    expect(entries[0]!.size).toBe(16);
    expect(zipNameOf('abc123', [file('report.pdf')])).toBe('report.zip');
    expect(zipNameOf('abc123', [file('a'), file('b')])).toBe('SendBridge-abc123.zip');
  });

  it('streams the opened files into a ZIP of the predicted size whose entries equal the plaintexts', async () => {
    const files = [
      await sealedFile('photo.jpg', bytesOf(300_000, 2), 'trip/photo.jpg'),
      await sealedFile('empty.txt', new Uint8Array(0)),
      await sealedFile('big.bin', bytesOf(E2E_CHUNK_BYTES * 2 + 17, 3)),
    ];
    const entries = zipEntries(files.map((f) => f.file));
    const byId = new Map(files.map((f) => [f.file.fileId, f]));
    const zip = await drain(
      zipStream(entries, (file) => byId.get(file.fileId)!.open(), new Date('2026-01-02T03:04:05Z')),
    );
    expect(zip.length).toBe(zipSizeOf(entries));
    const out = path.join(scratch, 'all.zip');
    writeFileSync(out, zip);
    expect(execFileSync('unzip', ['-Z1', out], { encoding: 'utf8' }).trim().split('\n')).toEqual([
      'trip/photo.jpg',
      'empty.txt',
      'big.bin',
    ]);
    expect(execFileSync('unzip', ['-tq', out], { encoding: 'utf8' })).toMatch(/No errors detected/);
    const dir = path.join(scratch, 'x');
    execFileSync('unzip', ['-q', out, '-d', dir]);
    for (const f of files) {
      expect(readFileSync(path.join(dir, f.file.itemPath ?? f.file.fileName)).equals(Buffer.from(f.plain))).toBe(true);
    }
  });

  it('fails, with the tamper error, when one file was changed', async () => {
    const files = [
      await sealedFile('ok.bin', bytesOf(1000, 4)),
      await sealedFile('bad.bin', bytesOf(E2E_CHUNK_BYTES + 10, 5), undefined, E2E_CHUNK_BYTES + E2E_TAG_BYTES + 3),
    ];
    const byId = new Map(files.map((f) => [f.file.fileId, f]));
    const stream = zipStream(zipEntries(files.map((f) => f.file)), (file) => byId.get(file.fileId)!.open(), new Date());
    const failure = await drain(stream).catch((e: unknown) => e);
    expect(isTamper(failure)).toBe(true);
  });
});

describe('the texts of an encrypted transfer', () => {
  it('exist in every language with the same keys and {{variables}}', () => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/gu)].map((m) => m[1]).sort();
    for (const language of LANGUAGES) {
      const texts = JSON.parse(
        readFileSync(new URL(`../../../../frontend/src/i18n/locales/sealed/${language}.json`, import.meta.url), 'utf8'),
      ) as Record<string, string>;
      expect(Object.keys(texts).sort(), language).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(texts)) {
        expect(v.trim(), `${language} ${k}`).not.toBe('');
        expect(vars(v), `${language} ${k}`).toEqual(vars((en as Record<string, string>)[k]!));
      }
    }
    expect(en.tampered).toMatch(/^This file was changed after it was sent/);
    expect(en.wrongPassphrase).toBe('This passphrase does not open the transfer.');
  });
});
