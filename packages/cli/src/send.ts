/**
 * `sendbridge send`: creates the transfer with the public API, uploads with the browser's
 * upload engine (frontend/src/shared/upload/engine.ts: parallel multipart, retries,
 * re-signing, server-recorded parts) reading the files as Node Blobs, then completes it.
 * Interrupted (Ctrl-C, a dropped connection that outlasts the engine's 15 tries), the same
 * command resumes from the checkpoint and the server's upload state.
 * With --e2e every file is sealed on the way (docs/e2e-format.md, e2e.ts): the server gets
 * ciphertext and public parameters; the key goes into the printed link's fragment, or comes
 * from a passphrase the sender tells the recipients.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import { openAsBlob } from 'node:fs';
import type {
  CompleteResponse,
  CompletingResponse,
  CreateTransferResponse,
  FileCompleteResponse,
  PlannedFile,
  SignManyResponse,
  SignResponse,
  UploadStateResponse,
} from '../../../functions/domain/transfer-api';
import {
  runUpload,
  UploadCancelledError,
  UploadFailedError,
  type EngineFile,
  type UploadApi,
} from '../../../frontend/src/shared/upload/engine';
import { TransportError } from '../../../frontend/src/shared/upload/transport';
import { completionPollDelayMs } from '../../../functions/domain/upload';
import {
  E2E_FORMAT_VERSION,
  cipherSizeOf,
  fileKeyOf,
  fromBase64url,
  keyCheckOf,
  keyFragment,
  keyFromPassphrase,
  newFileParams,
  newPassphraseParams,
  newTransferKey,
  toBase64url,
  type E2eTransferParams,
} from '../../../functions/domain/e2e-format';
import { TEXTS } from '../../../functions/domain/texts';
import { SealedFile, readPassphrase, sealedAwareFetch } from './e2e';
import { ApiError, CliError, EXIT, NetworkError } from './errors';
import {
  checkpointKey,
  clearSendCheckpoint,
  findSendCheckpoint,
  saveSendCheckpoint,
  type SendCheckpoint,
} from './checkpoint';
import { collectFiles, type LocalFile } from './files';
import { parseExpiry } from './args';
import { createProgressSink } from './progress';
import type { ApiClient } from './api';
import type { Context } from './context';

export interface SendOptions {
  sendAs: 'email' | 'link';
  emailTo?: { email: string }[];
  message?: string;
  password?: string;
  expirySeconds?: number;
  senderName?: string;
}

export function sendOptionsOf(values: Record<string, unknown>): SendOptions {
  const to = (values.to as string[] | undefined) ?? [];
  return {
    sendAs: values.link ? 'link' : 'email',
    ...(to.length ? { emailTo: to.map((email) => ({ email })) } : {}),
    ...(typeof values.message === 'string' ? { message: values.message } : {}),
    ...(typeof values.password === 'string' ? { password: values.password } : {}),
    ...(typeof values.expiry === 'string' ? { expirySeconds: parseExpiry(values.expiry) } : {}),
    ...(typeof values['sender-name'] === 'string' ? { senderName: values['sender-name'] } : {}),
  };
}

const nameOf = (f: { fileName: string; itemPath?: string }) => f.itemPath ?? f.fileName;

/** Pairs the server's plan with the local files: same path in the transfer and size, else same position and size. */
export function matchPlan(planned: readonly PlannedFile[], local: readonly LocalFile[]): Map<string, LocalFile> {
  const used = new Set<number>();
  const out = new Map<string, LocalFile>();
  planned.forEach((p, i) => {
    let idx = local.findIndex((l, j) => !used.has(j) && l.size === p.size && nameOf(l) === nameOf(p));
    if (idx === -1 && local[i] && !used.has(i) && local[i]!.size === p.size) idx = i;
    if (idx === -1)
      throw new CliError(
        `the server's upload plan has a file the CLI cannot find locally: ${nameOf(p)}`,
        EXIT.server,
        'plan_mismatch',
      );
    used.add(idx);
    out.set(p.fileId, local[idx]!);
  });
  return out;
}

/** Pairs an encrypted send's plan with the local files by the salt each file was given (unique per file). */
export function matchSealedPlan(
  planned: readonly PlannedFile[],
  local: readonly LocalFile[],
  salts: ReadonlyMap<LocalFile, string>,
): Map<string, LocalFile> {
  const bySalt = new Map([...salts].map(([f, salt]) => [salt, f]));
  const out = new Map<string, LocalFile>();
  for (const p of planned) {
    const lf = p.e2e ? bySalt.get(p.e2e.salt) : undefined;
    if (!lf || local.indexOf(lf) === -1 || p.size !== cipherSizeOf(lf.size))
      throw new CliError(
        `the server's upload plan has a file the CLI did not seal: ${nameOf(p)}`,
        EXIT.server,
        'plan_mismatch',
      );
    out.set(p.fileId, lf);
  }
  return out;
}

/** The engine's UploadApi over the public API v1 (exported for its tests). */
export function uploadApi(
  client: ApiClient,
  id: string,
  onPart: (fileId: string, partNumber: number) => void,
): UploadApi {
  const base = `/v1/transfers/${encodeURIComponent(id)}`;
  return {
    sign: (req, init) =>
      client.call<SignResponse>(`${base}/sign`, { body: req, ...(init?.signal ? { signal: init.signal } : {}) }),
    signMany: (req, init) =>
      client.call<SignManyResponse>(`${base}/sign`, { body: req, ...(init?.signal ? { signal: init.signal } : {}) }),
    async recordPart(req, init) {
      await client.call(`${base}/parts`, { body: req, ...(init?.signal ? { signal: init.signal } : {}) });
      onPart(req.fileId, req.partNumber);
    },
    async recordParts(req, init) {
      await client.call(`${base}/parts`, { body: req, ...(init?.signal ? { signal: init.signal } : {}) });
      for (const p of req.parts) onPart(p.fileId, p.partNumber);
    },
    async completeFile(fileId, init, req) {
      let retryAfter: string | null = null;
      const answer = await client.call<FileCompleteResponse | undefined>(
        `${base}/files/${encodeURIComponent(fileId)}/complete`,
        {
          method: 'POST',
          // a single PUT's CRC-32 as the engine computed it (the parts carry their own)
          ...(req?.crc32 === undefined ? {} : { body: { crc32: req.crc32 } }),
          ...(init?.signal ? { signal: init.signal } : {}),
          onAnswer: (_, headers) => (retryAfter = headers.get('retry-after')),
        },
      );
      if (answer?.state !== 'completing') return { state: 'complete' };
      const seconds = retryAfterSecondsOf(retryAfter) ?? answer.retryAfterSeconds;
      return { state: 'completing', ...(seconds !== undefined ? { retryAfterSeconds: seconds } : {}) };
    },
  };
}

function retryAfterSecondsOf(header: string | null): number | undefined {
  return header && /^\s*\d+\s*$/u.test(header) ? Number(header) : undefined;
}

/**
 * POST /v1/transfers/{id}/complete, asked again while the server answers 202 `completing`
 * (large files still being put together), after its Retry-After and a growing backoff.
 */
export async function completeWhenReady(
  client: ApiClient,
  id: string,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<CompleteResponse> {
  for (let poll = 1; ; poll += 1) {
    let retryAfter: string | null = null;
    const answer = await client.call<CompleteResponse | CompletingResponse>(
      `/v1/transfers/${encodeURIComponent(id)}/complete`,
      { method: 'POST', onAnswer: (_, headers) => (retryAfter = headers.get('retry-after')) },
    );
    if (answer.state !== 'completing') return answer;
    await sleep(completionPollDelayMs(poll, retryAfterSecondsOf(retryAfter) ?? answer.retryAfterSeconds));
  }
}

/** The exit code of a failed upload: the API's own, a network failure, else a server fault. */
export function exitCodeOfUploadFailure(err: UploadFailedError): number {
  let cause: unknown = err.cause;
  for (let i = 0; i < 5 && cause; i++) {
    if (cause instanceof CliError) return cause.exitCode;
    if (cause instanceof TransportError) return EXIT.network;
    cause = (cause as { cause?: unknown }).cause;
  }
  return EXIT.server;
}

/**
 * How an encrypted send's recipients get the key: by email only with a passphrase (a mailed
 * link has no fragment); by link in the fragment, unless a passphrase file is given.
 */
export function e2eModeOf(values: Record<string, unknown>): 'link' | 'passphrase' | undefined {
  if (!values.e2e) return undefined;
  return values.link && typeof values['passphrase-file'] !== 'string' ? 'link' : 'passphrase';
}

/** The engine's view of a local file: as it is, or sealed under its file key. */
async function blobOf(path: string, sealing?: { transferKey: Uint8Array; salt: string; plainSize: number }) {
  const blob = await openAsBlob(path);
  if (!sealing) return blob;
  return new SealedFile(blob, await fileKeyOf(sealing.transferKey, sealing.salt), sealing.plainSize).asBlob();
}

export async function send(ctx: Context, values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const e2eMode = e2eModeOf(values);
  // the CLI sends only with an API key, which is an account's; say it as the server would
  if (e2eMode && !ctx.key) throw new CliError(TEXTS.e2eNeedsAccount, EXIT.auth, 'encryption_needs_account');
  const client = ctx.requireKey();
  const local = collectFiles(positionals, ctx.cwd);
  const options = sendOptionsOf(values);
  const key = checkpointKey(ctx.origin, local, { ...options, ...(e2eMode ? { e2e: e2eMode } : {}) });
  const sink = createProgressSink({ json: ctx.json, tty: Boolean(ctx.stderr.isTTY) }, ctx.stdout, ctx.stderr);
  const totalBytes = local.reduce((s, f) => s + f.size, 0);

  let id: string;
  let link: string | undefined;
  let files: EngineFile[];
  let resuming = false;
  /** encrypted sends: the transfer key (never sent, never printed but in a link's fragment) */
  let transferKey: Uint8Array | undefined;
  const found = values.restart ? null : findSendCheckpoint(ctx.dir, key);
  // a plain checkpoint is never resumed as encrypted, nor the other way round
  const existing = found && Boolean(found.e2e) === Boolean(e2eMode) ? found : null;
  const state = existing ? await readUploadState(client, existing) : null;

  if (existing && state && state.status === 'ready') {
    clearSendCheckpoint(ctx.dir, key);
    sink.event({ event: 'done', id: existing.transferId, alreadySent: true });
    ctx.info(`Already sent: transfer ${existing.transferId} (finished in an earlier run).`);
    if (!ctx.json) ctx.print(existing.transferId);
    return EXIT.ok;
  }
  if (existing && state && state.status === 'uploading') {
    id = existing.transferId;
    resuming = true;
    if (existing.e2e) transferKey = fromBase64url(existing.e2e.key);
    const cpById = new Map(existing.files.map((f) => [f.fileId, f]));
    const byPath = new Map(local.map((f) => [f.path, f]));
    files = await Promise.all(
      state.files.map(async (s) => {
        const cpFile = cpById.get(s.fileId);
        const lf = byPath.get(cpFile?.path ?? '');
        const sealed = cpFile?.e2e;
        // an encrypted file resumes only as the very file it was sealed from (same salt, same nonces)
        const same =
          lf &&
          (transferKey
            ? sealed !== undefined &&
              sealed.plainSize === lf.size &&
              cipherSizeOf(lf.size) === s.size &&
              sealed.mtimeMs === lf.mtimeMs &&
              sealed.ino === lf.ino
            : lf.size === s.size);
        if (!lf || !same)
          throw new CliError(
            `cannot resume: ${nameOf(s)} is no longer the same file; run again with --restart`,
            EXIT.usage,
            'resume_mismatch',
          );
        const plan: PlannedFile = {
          fileId: s.fileId,
          fileName: s.fileName,
          size: s.size,
          mode: s.mode,
          ...(s.itemPath ? { itemPath: s.itemPath } : {}),
          ...(s.partSize ? { partSize: s.partSize } : {}),
          ...(s.partCount ? { partCount: s.partCount } : {}),
        };
        const blob = await blobOf(
          lf.path,
          transferKey && sealed ? { transferKey, salt: sealed.salt, plainSize: sealed.plainSize } : undefined,
        );
        return { plan, blob, uploaded: s.uploaded, partsDone: s.partsDone };
      }),
    );
    const partsDone = state.files.reduce((n, f) => n + f.partsDone.length, 0);
    const filesDone = state.files.filter((f) => f.uploaded).length;
    sink.event({ event: 'resumed', id, filesDone, partsDone });
    ctx.info(
      `Resuming transfer ${id}: ${filesDone} of ${state.files.length} files and ${partsDone} parts already uploaded.`,
    );
  } else {
    if (found) clearSendCheckpoint(ctx.dir, key);
    let e2e: E2eTransferParams | undefined;
    const salts = new Map<LocalFile, string>();
    if (e2eMode === 'link') transferKey = newTransferKey();
    else if (e2eMode === 'passphrase') {
      const kdf = newPassphraseParams();
      transferKey = await keyFromPassphrase(await readPassphrase(ctx, values, 'send'), kdf);
      e2e = { v: E2E_FORMAT_VERSION, mode: 'passphrase', kdf, check: await keyCheckOf(transferKey) };
    }
    if (e2eMode === 'link') e2e = { v: E2E_FORMAT_VERSION, mode: 'link', check: await keyCheckOf(transferKey!) };
    for (const f of e2e ? local : []) salts.set(f, newFileParams(f.size).salt);
    const created = await client.call<Omit<CreateTransferResponse, 'uploadToken'>>('/v1/transfers', {
      body: {
        ...options,
        ...(e2e ? { e2e } : {}),
        fileObjects: local.map((f) => ({
          fileName: f.fileName,
          size: e2e ? cipherSizeOf(f.size) : f.size,
          ...(f.itemPath ? { itemPath: f.itemPath } : {}),
          ...(e2e ? { e2e: { salt: salts.get(f)!, plainSize: f.size } } : {}),
        })),
      },
    });
    id = created.id;
    link = created.link;
    const matched = e2e ? matchSealedPlan(created.files, local, salts) : matchPlan(created.files, local);
    const cp: SendCheckpoint = {
      transferId: id,
      origin: ctx.origin,
      createdAt: Date.now(),
      files: created.files.map((p) => {
        const lf = matched.get(p.fileId)!;
        return {
          fileId: p.fileId,
          path: lf.path,
          size: p.size,
          ...(e2e ? { e2e: { salt: salts.get(lf)!, plainSize: lf.size, mtimeMs: lf.mtimeMs, ino: lf.ino } } : {}),
        };
      }),
      ...(e2eMode && transferKey ? { e2e: { key: toBase64url(transferKey), mode: e2eMode } } : {}),
    };
    saveSendCheckpoint(ctx.dir, key, cp);
    files = await Promise.all(
      created.files.map(async (plan) => {
        const lf = matched.get(plan.fileId)!;
        const sealing = transferKey ? { transferKey, salt: salts.get(lf)!, plainSize: lf.size } : undefined;
        return { plan, blob: await blobOf(lf.path, sealing) };
      }),
    );
    sink.event({ event: 'created', id, link, files: created.files.length, bytes: totalBytes });
    ctx.info(`Sending ${local.length} file${local.length === 1 ? '' : 's'} (${totalBytes} bytes) as transfer ${id}.`);
  }

  const abort = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const parallel = typeof values.parallel === 'string' ? Number(values.parallel) : undefined;
  try {
    await runUpload({
      api: uploadApi(client, id, (fileId, partNumber) => sink.event({ event: 'part', fileId, partNumber })),
      files,
      signal: abort.signal,
      resuming,
      // a sealed file's slices are made when read: sent as the bytes they stand for
      fetchImpl: transferKey ? sealedAwareFetch(fetch) : fetch,
      crc32: (bytes, previous) => zlibCrc32(bytes, previous),
      ...(parallel ? { parallelism: parallel } : {}),
      onProgress: (p) => sink.progress(p),
      onWarning: (w) => {
        sink.event({ event: 'warning', ...w });
        sink.note(
          w.kind === 'retrying'
            ? `Slow network: retrying (try ${w.tryNumber})`
            : w.kind === 'network'
              ? `Network error, retrying: ${w.message}`
              : `Cannot read ${w.fileName}: is it in use or changed?`,
        );
      },
    });
  } catch (err) {
    sink.end();
    if (err instanceof UploadCancelledError) {
      sink.event({ event: 'interrupted', id });
      ctx.info(`Interrupted. Run the same command again within 7 days to resume transfer ${id}.`);
      return EXIT.interrupted;
    }
    if (err instanceof UploadFailedError) {
      const code = exitCodeOfUploadFailure(err);
      sink.event({
        event: 'failed',
        id,
        fileName: err.fileName,
        part: err.part,
        tries: err.tries,
        message: err.message,
      });
      throw new CliError(
        `upload of ${err.fileName}${err.part ? ` (part ${err.part})` : ''} failed after ${err.tries} tries: ${err.message}. Run the same command again to resume.`,
        code as CliError['exitCode'],
        'upload_failed',
      );
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
  sink.end();
  const done = await completeWhenReady(client, id);
  clearSendCheckpoint(ctx.dir, key);
  const keyMode = existing?.e2e?.mode ?? e2eMode;
  // the key travels only in the link the sender hands on: its fragment, which no browser sends
  const withKey = (l: string | undefined) =>
    l && transferKey && keyMode === 'link' ? `${l.split('#')[0]}#${keyFragment(transferKey)}` : l;
  if (ctx.json)
    ctx.printJson({
      event: 'done',
      id: done.id,
      link: withKey(done.link ?? link),
      expiryDate: done.expiryDate,
      recipients: done.recipients,
      ...(keyMode ? { e2e: keyMode } : {}),
    });
  else {
    ctx.info(done.recipients.length ? `Sent to ${done.recipients.join(', ')}.` : 'Sent.');
    if (keyMode === 'passphrase')
      ctx.info('End-to-end encrypted: tell the recipients the passphrase yourself, not in the same message.');
    else if (keyMode === 'link')
      ctx.info('End-to-end encrypted: the key is in the link after #; whoever has the link can open the files.');
    ctx.print(withKey(done.link ?? link) ?? id);
  }
  return EXIT.ok;
}

/** The server's state of a checkpointed transfer, or null when it is gone (deleted, expired, not ours). */
async function readUploadState(client: ApiClient, cp: SendCheckpoint): Promise<UploadStateResponse | null> {
  try {
    return await client.call<UploadStateResponse>(`/v1/transfers/${encodeURIComponent(cp.transferId)}/upload-state`);
  } catch (err) {
    if (
      err instanceof ApiError &&
      (err.status === 404 || err.status === 410 || err.status === 403 || err.status === 409) &&
      err.code !== 'key_scope_missing' &&
      err.code !== 'invalid_api_key'
    )
      return null;
    if (err instanceof NetworkError || err instanceof ApiError) throw err;
    throw err;
  }
}
