/** `sendbridge ls`, `sendbridge get` and `sendbridge request create`. */
import { createWriteStream, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TransferListResponse } from '../../../functions/domain/dashboard-api';
import type { DownloadView, ZipResponse } from '../../../functions/domain/transfer-api';
import { isRecipientId, isSlug } from '../../../functions/domain/id-patterns';
import { ApiClient, describeFetchError } from './api';
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
export function parseTransferRef(ref: string): { id: string; recipient?: string; origin?: string } {
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
  return { id, origin: url.origin, ...(recipient && isRecipientId(recipient) ? { recipient } : {}) };
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

async function download(
  url: string,
  dest: string,
  expectedSize: number,
  onBytes: (n: number) => void = () => undefined,
): Promise<void> {
  mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.sendbridge-part`;
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new NetworkError(`download failed: ${describeFetchError(err)}`, { cause: err });
  }
  if (!res.ok || !res.body)
    throw new CliError(
      `download of ${path.basename(dest)} failed: HTTP ${res.status}`,
      res.status === 404 || res.status === 410 ? EXIT.notFound : res.status >= 500 ? EXIT.server : EXIT.network,
      'download_failed',
    );
  try {
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        onBytes(chunk.length);
        done(null, chunk);
      },
    });
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      count,
      createWriteStream(tmp),
    );
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new NetworkError(`download of ${path.basename(dest)} broke off: ${describeFetchError(err)}`, { cause: err });
  }
  const size = statSync(tmp).size;
  if (size !== expectedSize) {
    rmSync(tmp, { force: true });
    throw new CliError(
      `${path.basename(dest)}: received ${size} bytes, expected ${expectedSize}`,
      EXIT.server,
      'size_mismatch',
    );
  }
  renameSync(tmp, dest);
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
    await download(zip.url, dest, zip.size, meter.add);
    meter.fileDone();
    meter.end();
    if (ctx.json) ctx.printJson({ id: view.id, zip: dest, size: zip.size });
    else ctx.print(dest);
    return EXIT.ok;
  }
  const written: { path: string; size: number }[] = [];
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
    const { url } = await whileScanning(ctx, rel, () =>
      client.call<{ url: string }>('/getDownload/file', { body: { ...auth, fileId: f.fileId } }),
    );
    meter.note(`${rel} (${formatBytes(f.size)})`);
    await download(url, dest, f.size, meter.add);
    meter.fileDone();
    written.push({ path: dest, size: f.size });
  }
  meter.end();
  if (ctx.json) ctx.printJson({ id: view.id, files: written, ...(skipped.length ? { skipped } : {}) });
  else for (const w of written) ctx.print(w.path);
  if (skipped.length) {
    ctx.info(`${skipped.length} of ${view.files.length} files could not be downloaded (see above).`);
    return EXIT.notFound;
  }
  return EXIT.ok;
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
