/**
 * `sendbridge ls`, `sendbridge get` and `sendbridge request create`. An end-to-end encrypted
 * transfer is opened here (docs/e2e-format.md): each sealed object is decrypted while it streams
 * to disk, into `<name>.part`, renamed only once the last chunk's tag checked.
 */
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { TransferListResponse } from '../../../functions/domain/dashboard-api';
import type { DownloadManifest, DownloadView, ZipResponse } from '../../../functions/domain/transfer-api';
import { isRecipientId, isSlug } from '../../../functions/domain/id-patterns';
import { fileKeyOf } from '../../../functions/domain/e2e-format';
import { ApiClient, describeFetchError } from './api';
import { TamperedFileError, downloadKey, isTamper, openingWindow, wholeSealedChunks } from './e2e';
import { ApiError, CliError, EXIT, NetworkError, UsageError } from './errors';
import { createProgressSink, formatBytes } from './progress';
import type { Context } from './context';

export async function ls(ctx: Context, values: Record<string, unknown>): Promise<number> {
  const client = ctx.requireKey();
  const q = new URLSearchParams();
  if (typeof values.filter === 'string') q.set('filter', values.filter);
  if (typeof values.skip === 'string') q.set('skip', values.skip);
  if (typeof values.search === 'string') q.set('q', values.search);
  const res = await client.call<TransferListResponse>(`/v1/transfers${q.size ? `?${q}` : ''}`);
  if (ctx.json) {
    ctx.printJson(res);
    return EXIT.ok;
  }
  if (res.allDocs.length === 0) {
    ctx.info('No transfers.');
    return EXIT.ok;
  }
  const rows = res.allDocs.map((t) => [
    t.slug,
    new Date(t.dateSent).toISOString().slice(0, 16).replace('T', ' '),
    t.state,
    String(t.fileCount),
    formatBytes(t.size),
    String(t.total_downloads),
    t.sendAs === 'email' ? t.recipients.join(',') : 'link',
    t.fileName,
  ]);
  const head = ['ID', 'SENT (UTC)', 'STATE', 'FILES', 'SIZE', 'DOWNLOADS', 'TO', 'NAME'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [head, ...rows])
    ctx.print(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  '));
  if (res.hasMore) ctx.info(`More: sendbridge ls --skip ${res.skip + res.allDocs.length}`);
  return EXIT.ok;
}

/** A download link (`/w/{id}`, `/downloads/{id}[/{recipient}]`, `/d/{id}`) or a bare transfer id. */
export function parseTransferRef(ref: string): { id: string; recipient?: string; origin?: string; fragment?: string } {
  if (isSlug(ref)) return { id: ref };
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    throw new UsageError(`get: not a link or transfer id: ${ref}`);
  }
  const parts = url.pathname.split('/').filter(Boolean);
  const at = parts.findIndex((p) => p === 'w' || p === 'downloads' || p === 'd');
  const id = at === -1 ? undefined : parts[at + 1];
  if (!id || !isSlug(id)) throw new UsageError(`get: no transfer id in ${url.origin}${url.pathname}`);
  const recipient = parts[at] === 'downloads' ? parts[at + 2] : undefined;
  return {
    id,
    origin: url.origin,
    ...(recipient && isRecipientId(recipient) ? { recipient } : {}),
    // an encrypted transfer's key (`#k=...`): read here, never sent anywhere
    ...(url.hash.length > 1 ? { fragment: url.hash } : {}),
  };
}

/** The file's place under the output folder, never outside it (no `..`, no absolute paths). */
export function safeRelativePath(name: string): string {
  const segs = name.split(/[\\/]+/u).filter((s) => s !== '' && s !== '.' && s !== '..');
  if (segs.length === 0)
    throw new CliError(
      `refusing a file name with no usable path: ${JSON.stringify(name)}`,
      EXIT.server,
      'bad_file_name',
    );
  return path.join(...segs.map((s) => s.replace(/[\u0000-\u001f]/gu, '_')));
}

/** How often `get` asks for a file's bytes before it gives up on a broken connection (the first try included). */
export const DOWNLOAD_TRIES = 6;
/** Waits between tries: 1 s, doubling, at most 15 s. */
export function downloadBackoffMs(failedTries: number): number {
  return Math.min(15_000, 1000 * 2 ** (failedTries - 1));
}

/** Where one download's bytes come from: a presigned URL, and how to get a fresh one when it expired. */
interface DownloadSource {
  readonly url: string;
  readonly renew?: () => Promise<string>;
}

/** The partial file beside the destination, and the validator (ETag) of the bytes in it, kept across runs. */
const partOf = (dest: string) => `${dest}.part`;
const validatorOf = (dest: string) => `${dest}.part.etag`;

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function readValidator(dest: string): string | undefined {
  try {
    return readFileSync(validatorOf(dest), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A presigned GET that ran out of time (S3: 403 AccessDenied "Request has expired"). */
const isExpiredAnswer = (status: number) => status === 403;
const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** The first byte a 206 carries (`Content-Range: bytes 100-199/1000`), or undefined. */
function rangeStart(res: Response): number | undefined {
  const m = /^bytes (\d+)-\d+\/(?:\d+|\*)$/u.exec(res.headers.get('content-range') ?? '');
  return m ? Number(m[1]) : undefined;
}

/**
 * Downloads into `<dest>.part` and renames it once it has `expectedSize` bytes. A connection
 * that breaks keeps the partial file: the next try asks for the rest (`Range`), with `If-Range`
 * on the ETag of the bytes already there, so a changed object comes whole instead of being glued
 * to old bytes. An expired URL is renewed; up to DOWNLOAD_TRIES tries with backoff. A `.part`
 * left by an earlier run is continued the same way.
 */
async function download(
  source: DownloadSource,
  dest: string,
  expectedSize: number,
  onBytes: (n: number) => void = () => undefined,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = partOf(dest);
  let url = source.url;
  let validator = readValidator(dest);
  let have = sizeOf(tmp);
  if (have > expectedSize || (have > 0 && !validator)) {
    rmSync(tmp, { force: true });
    have = 0;
  }
  onBytes(have);
  let lastError: CliError | undefined;
  for (let tryNumber = 1; tryNumber <= DOWNLOAD_TRIES; tryNumber += 1) {
    if (tryNumber > 1) await sleep(downloadBackoffMs(tryNumber - 1));
    if (have === expectedSize && expectedSize > 0) break;
    const headers: Record<string, string> =
      have > 0 && validator ? { range: `bytes=${have}-`, 'if-range': validator } : {};
    let res: Response;
    try {
      res = await fetch(url, { headers });
    } catch (err) {
      lastError = new NetworkError(`download of ${path.basename(dest)} failed: ${describeFetchError(err)}`, {
        cause: err,
      });
      continue;
    }
    if (isExpiredAnswer(res.status) && source.renew) {
      await res.body?.cancel();
      url = await source.renew();
      lastError = new CliError(`download of ${path.basename(dest)}: the link expired`, EXIT.network, 'download_failed');
      continue;
    }
    if (res.status === 416 && have === expectedSize) break;
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      const failure = new CliError(
        `download of ${path.basename(dest)} failed: HTTP ${res.status}`,
        res.status === 404 || res.status === 410 ? EXIT.notFound : res.status >= 500 ? EXIT.server : EXIT.network,
        'download_failed',
      );
      if (!isRetryableStatus(res.status)) throw failure;
      lastError = failure;
      continue;
    }
    // 206 from where we stand appends; anything else (200: the object changed, or no range was
    // asked) starts the file over
    const appending = res.status === 206 && rangeStart(res) === have;
    if (!appending) {
      if (res.status === 206) {
        await res.body.cancel();
        rmSync(tmp, { force: true });
        onBytes(-have);
        have = 0;
        lastError = new CliError(
          `download of ${path.basename(dest)}: an unexpected range came back`,
          EXIT.server,
          'download_failed',
        );
        continue;
      }
      onBytes(-have);
      have = 0;
    }
    validator = res.headers.get('etag') ?? res.headers.get('last-modified') ?? undefined;
    if (validator) writeFileSync(validatorOf(dest), validator);
    else rmSync(validatorOf(dest), { force: true });
    const base = have;
    let counted = 0;
    const out = createWriteStream(tmp, { flags: appending ? 'a' : 'w' });
    try {
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          counted += chunk.length;
          onBytes(chunk.length);
          done(null, chunk);
        },
      });
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), count, out);
      have = sizeOf(tmp);
      break;
    } catch (err) {
      // A write in flight when the pipeline failed still lands: measured before the file is
      // closed, the resume would ask for those bytes again and append them twice.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      // the partial file keeps what reached it; the meter forgets what it counted beyond that
      have = sizeOf(tmp);
      onBytes(have - (base + counted));
      lastError = new NetworkError(`download of ${path.basename(dest)} broke off: ${describeFetchError(err)}`, {
        cause: err,
      });
    }
  }
  const size = sizeOf(tmp);
  if (size < expectedSize && lastError) throw lastError;
  if (size !== expectedSize) {
    rmSync(tmp, { force: true });
    rmSync(validatorOf(dest), { force: true });
    throw new CliError(
      `${path.basename(dest)}: received ${size} bytes, expected ${expectedSize}`,
      EXIT.server,
      'size_mismatch',
    );
  }
  renameSync(tmp, dest);
  rmSync(validatorOf(dest), { force: true });
}

/**
 * Downloads a sealed object and opens it while it streams (openingWindow: the reference
 * module's checks, a few chunks opened at once) into `<dest>.part`, renamed to `dest` only after the last chunk's tag checked; returns
 * the SHA-256 of the sealed bytes as they came (the manifest's digest is of those). A changed
 * chunk (or a cut or overlong object) deletes the partial file and fails with TamperedFileError,
 * with no retry: the same bytes would come again. A broken connection or an expired URL is tried
 * again from the object's start (a partial plaintext is never continued: it is rewritten), up to
 * DOWNLOAD_TRIES; whatever fails, no `.part` stays behind. The sealed bytes' SHA-256 is computed
 * only when asked (`digest`: the manifest has one to compare it with), as `get` of a plain file
 * hashes only a file whose digest the server has.
 */
async function downloadSealed(
  source: DownloadSource,
  dest: string,
  name: string,
  cipherSize: number,
  open: () => Promise<TransformStream<Uint8Array, Uint8Array>>,
  digest: boolean,
  onBytes: (n: number) => void = () => undefined,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<string | undefined> {
  mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = partOf(dest);
  rmSync(validatorOf(dest), { force: true });
  let url = source.url;
  let lastError: CliError | undefined;
  try {
    for (let tryNumber = 1; tryNumber <= DOWNLOAD_TRIES; tryNumber += 1) {
      if (tryNumber > 1) await sleep(downloadBackoffMs(tryNumber - 1));
      let res: Response;
      try {
        res = await fetch(url);
      } catch (err) {
        lastError = new NetworkError(`download of ${name} failed: ${describeFetchError(err)}`, { cause: err });
        continue;
      }
      if (isExpiredAnswer(res.status) && source.renew) {
        await res.body?.cancel();
        url = await source.renew();
        lastError = new CliError(`download of ${name}: the link expired`, EXIT.network, 'download_failed');
        continue;
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        const failure = new CliError(
          `download of ${name} failed: HTTP ${res.status}`,
          res.status === 404 || res.status === 410 ? EXIT.notFound : res.status >= 500 ? EXIT.server : EXIT.network,
          'download_failed',
        );
        if (!isRetryableStatus(res.status)) throw failure;
        lastError = failure;
        continue;
      }
      const hash = digest ? createHash('sha256') : undefined;
      let counted = 0;
      let sealedBytes = 0;
      const seen = (piece: Uint8Array) => {
        hash?.update(piece);
        sealedBytes += piece.length;
      };
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          counted += chunk.length;
          onBytes(chunk.length);
          done(null, chunk);
        },
      });
      const plain = (res.body as ReadableStream<Uint8Array>)
        .pipeThrough(wholeSealedChunks(undefined, seen))
        .pipeThrough(await open());
      try {
        await pipeline(
          Readable.fromWeb(plain as import('node:stream/web').ReadableStream<Uint8Array>),
          count,
          createWriteStream(tmp),
        );
      } catch (err) {
        onBytes(-counted);
        if (isTamper(err)) throw new TamperedFileError(name);
        lastError = new NetworkError(`download of ${name} broke off: ${describeFetchError(err)}`, { cause: err });
        continue;
      }
      if (sealedBytes !== cipherSize) throw new TamperedFileError(name);
      renameSync(tmp, dest);
      return hash?.digest('hex');
    }
    throw lastError ?? new CliError(`download of ${name} failed`, EXIT.network, 'download_failed');
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** SHA-256 of a file on disk, lowercase hex. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** What `get` found of one file against the manifest: equal, not computed yet on the server, or different. */
export type Verification = 'verified' | 'unverified' | 'mismatch';

/** The transfer's manifest, or undefined from a server without one (every file then unverified). */
async function fetchManifest(client: ApiClient, auth: object): Promise<DownloadManifest | undefined> {
  try {
    return await client.call<DownloadManifest>('/getDownload/manifest', { body: auth });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405) && err.code !== 'transfer_not_found')
      return undefined;
    throw err;
  }
}

export async function get(ctx: Context, values: Record<string, unknown>, ref: string): Promise<number> {
  const target = parseTransferRef(ref);
  const client = ctx.client;
  const outDir = path.resolve(ctx.cwd, typeof values.output === 'string' ? values.output : '.');
  const auth = {
    id: target.id,
    ...(typeof values.password === 'string' ? { password: values.password } : {}),
    ...(target.recipient ? { recipient: target.recipient } : {}),
  };
  const view = await client.call<DownloadView>('/getDownload', { body: auth }).catch((err: unknown) => {
    throw passwordHint(err);
  });
  if (view.e2e) return getSealed(ctx, values, view, auth, outDir, target.fragment);
  if (values.zip) {
    let zip: ZipResponse;
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      zip = await whileScanning(ctx, 'the files', () => client.call<ZipResponse>('/zip', { body: auth }));
      if (zip.status === 'ready') break;
      if (Date.now() > deadline)
        throw new CliError(
          'the ZIP is still being built after 30 minutes; try again later',
          EXIT.server,
          'zip_timeout',
        );
      ctx.info('Building the ZIP...');
      await new Promise((r) => setTimeout(r, 1000));
    }
    const dest = path.join(outDir, `sendbridge-${view.id}.zip`);
    const meter = downloadMeter(ctx, zip.size, 1);
    const renewZip = async () => {
      const again = await client.call<ZipResponse>('/zip', { body: auth });
      if (again.status !== 'ready')
        throw new CliError('the ZIP changed while it was downloaded; run get again', EXIT.server, 'download_failed');
      return again.url;
    };
    await download({ url: zip.url, renew: renewZip }, dest, zip.size, meter.add);
    meter.fileDone();
    meter.end();
    const entries = await verifyZipEntries(dest, await fetchManifest(client, auth));
    if (ctx.json) ctx.printJson({ id: view.id, zip: dest, size: zip.size, files: entries });
    else ctx.print(dest);
    return reportVerification(ctx, entries, (e) => e.path, dest);
  }
  const written: { path: string; size: number; fileId: string; verified?: Verification }[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const wanted = view.files.filter((f) => f.scan !== 'removed' && f.scan !== 'error');
  const meter = downloadMeter(
    ctx,
    wanted.reduce((sum, f) => sum + f.size, 0),
    wanted.length,
  );
  for (const f of view.files) {
    const rel = safeRelativePath(f.itemPath ?? f.fileName);
    const dest = path.join(outDir, rel);
    if (!dest.startsWith(outDir + path.sep))
      throw new CliError(`refusing to write outside ${outDir}: ${rel}`, EXIT.server, 'bad_file_name');
    // The malware scan removed it, or could not check it: the server serves neither; the rest still comes.
    if (f.scan === 'removed' || f.scan === 'error') {
      const reason = f.scan === 'removed' ? 'file_removed' : 'scan_failed';
      meter.note(
        `${rel}: skipped, ${f.scan === 'removed' ? 'removed by the malware scan' : 'the malware scan could not check it'}`,
      );
      skipped.push({ path: rel, reason });
      continue;
    }
    const link = () =>
      whileScanning(ctx, rel, () =>
        client.call<{ url: string }>('/getDownload/file', { body: { ...auth, fileId: f.fileId } }),
      );
    const { url } = await link();
    meter.note(`${rel} (${formatBytes(f.size)})`);
    await download({ url, renew: async () => (await link()).url }, dest, f.size, meter.add);
    meter.fileDone();
    written.push({ path: dest, size: f.size, fileId: f.fileId });
  }
  meter.end();
  const checked = await verifyFiles(client, auth, written);
  if (ctx.json)
    ctx.printJson({
      id: view.id,
      files: checked.map(({ fileId: _id, ...w }) => w),
      ...(skipped.length ? { skipped } : {}),
    });
  else for (const w of checked) ctx.print(w.path);
  reportVerification(ctx, checked, (w) => path.relative(outDir, w.path));
  if (skipped.length) {
    ctx.info(`${skipped.length} of ${view.files.length} files could not be downloaded (see above).`);
    return EXIT.notFound;
  }
  return EXIT.ok;
}

/**
 * `get` of an end-to-end encrypted transfer: the key from the link's fragment or the passphrase,
 * checked before anything is downloaded; each file opened while it streams to disk; the
 * manifest's SHA-256 (of the sealed object, the bytes the server has) checked against the
 * sealed bytes as they came, on top of every chunk's GCM tag. No `--zip`: the server cannot
 * build a ZIP of files it cannot read (it answers 409 encrypted_zip_in_browser), so the CLI
 * refuses it and downloads the files instead when asked without it.
 */
async function getSealed(
  ctx: Context,
  values: Record<string, unknown>,
  view: DownloadView,
  auth: object,
  outDir: string,
  fragment: string | undefined,
): Promise<number> {
  if (values.zip)
    throw new CliError(
      'this transfer is end-to-end encrypted: the server cannot build its ZIP (it cannot read the files). Run get without --zip: the files are downloaded and decrypted here, with their folders.',
      EXIT.usage,
      'encrypted_zip_in_browser',
    );
  const client = ctx.client;
  const transferKey = await downloadKey(ctx, values, view.e2e!, fragment);
  const wanted = view.files.filter((f) => f.scan !== 'removed' && f.scan !== 'error');
  const meter = downloadMeter(
    ctx,
    wanted.reduce((sum, f) => sum + f.size, 0),
    wanted.length,
  );
  // the digests the server has now (of the sealed objects): only those files are hashed on the way
  const digests = new Map((await fetchManifest(client, auth))?.files.map((e) => [e.fileId, e.sha256]));
  const written: { path: string; size: number; fileId: string; sealedSha256: string | undefined }[] = [];
  const skipped: { path: string; reason: string }[] = [];
  for (const f of view.files) {
    const rel = safeRelativePath(f.itemPath ?? f.fileName);
    const dest = path.join(outDir, rel);
    if (!dest.startsWith(outDir + path.sep))
      throw new CliError(`refusing to write outside ${outDir}: ${rel}`, EXIT.server, 'bad_file_name');
    if (f.scan === 'removed' || f.scan === 'error') {
      meter.note(`${rel}: skipped, ${f.scan === 'removed' ? 'removed' : 'not available'}`);
      skipped.push({ path: rel, reason: f.scan === 'removed' ? 'file_removed' : 'scan_failed' });
      continue;
    }
    const sealed = f.e2e;
    if (!sealed)
      throw new CliError(
        `${rel}: an encrypted transfer lists a file without its salt`,
        EXIT.server,
        'invalid_encryption',
      );
    const link = () =>
      whileScanning(ctx, rel, () =>
        client.call<{ url: string }>('/getDownload/file', { body: { ...auth, fileId: f.fileId } }),
      );
    const { url } = await link();
    meter.note(`${rel} (${formatBytes(sealed.plainSize)})`);
    const fileKey = await fileKeyOf(transferKey, sealed.salt);
    const sealedSha256 = await downloadSealed(
      { url, renew: async () => (await link()).url },
      dest,
      rel,
      f.size,
      async () => openingWindow(fileKey, sealed.plainSize),
      Boolean(digests.get(f.fileId)),
      meter.add,
    );
    meter.fileDone();
    written.push({ path: dest, size: sealed.plainSize, fileId: f.fileId, sealedSha256 });
  }
  meter.end();
  const checked = written.map(({ sealedSha256, ...w }) => {
    const want = digests.get(w.fileId);
    const verified: Verification =
      !want || !sealedSha256 ? 'unverified' : want === sealedSha256 ? 'verified' : 'mismatch';
    return { ...w, verified };
  });
  if (ctx.json)
    ctx.printJson({
      id: view.id,
      e2e: view.e2e!.mode,
      files: checked.map(({ fileId: _id, ...w }) => w),
      ...(skipped.length ? { skipped } : {}),
    });
  else for (const w of checked) ctx.print(w.path);
  // a mismatch here means the server's digest and the bytes it served differ; the tags passed
  reportVerification(ctx, checked, (w) => path.relative(outDir, w.path));
  if (skipped.length) {
    ctx.info(`${skipped.length} of ${view.files.length} files could not be downloaded (see above).`);
    return EXIT.notFound;
  }
  return EXIT.ok;
}

/**
 * Says which files are unverified (their SHA-256 not computed on the server yet) and fails with
 * checksum_mismatch (exit 5) when one differs; `what` names a file, `archive` the ZIP they came in.
 */
function reportVerification<T extends { verified: Verification }>(
  ctx: Context,
  files: readonly T[],
  what: (f: T) => string,
  archive?: string,
): number {
  const mismatched = files.filter((f) => f.verified === 'mismatch');
  const unverified = files.filter((f) => f.verified === 'unverified');
  if (!ctx.json && unverified.length)
    ctx.info(
      `${unverified.length} of ${files.length} files unverified: their SHA-256 is still being computed on the server (${unverified.map(what).join(', ')}).`,
    );
  if (mismatched.length)
    throw new CliError(
      `checksum mismatch: ${mismatched.map(what).join(', ')}${archive ? ` in ${archive}` : ''} ${mismatched.length === 1 ? 'differs' : 'differ'} from the SHA-256 the server recorded; download ${archive ? 'the ZIP' : mismatched.length === 1 ? 'it' : 'them'} again`,
      EXIT.server,
      'checksum_mismatch',
    );
  return EXIT.ok;
}

/**
 * Every file entry of a downloaded ZIP, hashed as it is read, against the manifest by path (the
 * ZIP's entry names are the manifest's paths); an entry the manifest has no SHA-256 for is unverified.
 */
async function verifyZipEntries(
  zipPath: string,
  manifest: DownloadManifest | undefined,
): Promise<{ path: string; size: number; verified: Verification }[]> {
  const expected = new Map(manifest?.files.map((e) => [e.path, e.sha256]));
  const damaged = (err: unknown) =>
    new CliError(
      `the ZIP ${zipPath} is damaged (${err instanceof Error ? err.message : String(err)}); download it again`,
      EXIT.server,
      'zip_damaged',
    );
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, validateEntrySizes: true }).catch((err) => {
    throw damaged(err);
  });
  const out: { path: string; size: number; verified: Verification }[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      const want = expected.get(entry.fileName);
      const hash = createHash('sha256');
      // read even when unverified: yauzl's size check still catches a truncated entry
      await pipeline(await zip.openReadStreamPromise(entry), hash);
      const got = hash.digest('hex');
      out.push({
        path: entry.fileName,
        size: entry.uncompressedSize,
        verified: !want ? 'unverified' : got === want ? 'verified' : 'mismatch',
      });
    }
  } catch (err) {
    throw err instanceof CliError ? err : damaged(err);
  } finally {
    zip.close();
  }
  return out;
}

/** Each written file's SHA-256 against the manifest's (fetched after the downloads, so digests had time). */
async function verifyFiles<T extends { path: string; fileId: string }>(
  client: ApiClient,
  auth: object,
  written: readonly T[],
): Promise<(T & { verified: Verification })[]> {
  const manifest = written.length ? await fetchManifest(client, auth) : undefined;
  const expected = new Map(manifest?.files.map((e) => [e.fileId, e.sha256]));
  const out: (T & { verified: Verification })[] = [];
  for (const w of written) {
    const want = expected.get(w.fileId);
    if (!want) out.push({ ...w, verified: 'unverified' });
    else out.push({ ...w, verified: (await sha256Of(w.path)) === want ? 'verified' : 'mismatch' });
  }
  return out;
}

/**
 * `get`'s progress on stderr, as `send` draws it (bar, bytes, speed, time left; redrawn at most 5
 * times a second on a terminal, a line every 5 s otherwise). Nothing with --json: its stdout is
 * one object.
 */
function downloadMeter(ctx: Context, bytesTotal: number, filesTotal: number) {
  const sink = ctx.json
    ? undefined
    : createProgressSink({ json: false, tty: Boolean(ctx.stderr.isTTY) }, ctx.stdout, ctx.stderr);
  const started = Date.now();
  let bytesDone = 0;
  let filesDone = 0;
  let drawnAt = 0;
  const draw = (force: boolean) => {
    const now = Date.now();
    if (!sink || (!force && now - drawnAt < 200)) return;
    drawnAt = now;
    const seconds = (now - started) / 1000;
    const speedBps = seconds >= 0.5 ? bytesDone / seconds : 0;
    sink.progress({
      bytesDone,
      bytesTotal,
      filesDone,
      filesTotal,
      speedBps,
      etaMs: speedBps > 0 ? ((bytesTotal - bytesDone) / speedBps) * 1000 : null,
      phase: 'transferring',
      tryNumber: 1,
    });
  };
  return {
    add: (n: number) => {
      bytesDone += n;
      draw(false);
    },
    fileDone: () => {
      filesDone += 1;
      draw(filesDone === filesTotal);
    },
    note: (line: string) => (sink ? sink.note(line) : ctx.info(line)),
    end: () => sink?.end(),
  };
}

/** The API says the same words for a missing and a wrong password; a terminal user needs to know which, and the option. */
export function passwordHint(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.code === 'password_required')
    return new ApiError(
      err.status,
      err.code,
      'This transfer is password protected: give its password with --password.',
      err.details,
    );
  if (err.code === 'wrong_password')
    return new ApiError(err.status, err.code, 'Wrong password for this transfer (--password).', err.details);
  return err;
}

/** How long `get` waits for the malware scan of a fresh upload before it gives up. */
export const SCAN_WAIT_MS = 10 * 60_000;

/** Runs `call` again every 2 s while the server answers 409 scan_pending (a fresh upload being checked). */
async function whileScanning<T>(ctx: Context, what: string, call: () => Promise<T>, waitMs = SCAN_WAIT_MS): Promise<T> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'scan_pending' || Date.now() > deadline) throw err;
      if (!told) ctx.info(`Waiting for the malware scan of ${what}...`);
      told = true;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

export async function requestCreate(ctx: Context, values: Record<string, unknown>): Promise<number> {
  const client = ctx.requireKey();
  const made = await client.call<{ id: string; link: string; title: string }>('/v1/requests', {
    body: { title: String(values.title), ...(typeof values.message === 'string' ? { message: values.message } : {}) },
  });
  if (ctx.json) ctx.printJson(made);
  else ctx.print(made.link);
  return EXIT.ok;
}

export { ApiClient };
