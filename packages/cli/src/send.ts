/**
 * `sendbridge send`: creates the transfer with the public API, uploads with the browser's
 * upload engine (frontend/src/shared/upload/engine.ts: parallel multipart, retries,
 * re-signing, server-recorded parts) reading the files as Node Blobs, then completes it.
 * Interrupted (Ctrl-C, a dropped connection that outlasts the engine's 15 tries), the same
 * command resumes from the checkpoint and the server's upload state.
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

export async function send(ctx: Context, values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const client = ctx.requireKey();
  const local = collectFiles(positionals, ctx.cwd);
  const options = sendOptionsOf(values);
  const key = checkpointKey(ctx.origin, local, { ...options });
  const sink = createProgressSink({ json: ctx.json, tty: Boolean(ctx.stderr.isTTY) }, ctx.stdout, ctx.stderr);
  const totalBytes = local.reduce((s, f) => s + f.size, 0);

  let id: string;
  let link: string | undefined;
  let files: EngineFile[];
  let resuming = false;
  const existing = values.restart ? null : findSendCheckpoint(ctx.dir, key);
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
    const pathById = new Map(existing.files.map((f) => [f.fileId, f.path]));
    const byPath = new Map(local.map((f) => [f.path, f]));
    files = await Promise.all(
      state.files.map(async (s) => {
        const lf = byPath.get(pathById.get(s.fileId) ?? '');
        if (!lf || lf.size !== s.size)
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
        return { plan, blob: await openAsBlob(lf.path), uploaded: s.uploaded, partsDone: s.partsDone };
      }),
    );
    const partsDone = state.files.reduce((n, f) => n + f.partsDone.length, 0);
    const filesDone = state.files.filter((f) => f.uploaded).length;
    sink.event({ event: 'resumed', id, filesDone, partsDone });
    ctx.info(
      `Resuming transfer ${id}: ${filesDone} of ${state.files.length} files and ${partsDone} parts already uploaded.`,
    );
  } else {
    if (existing) clearSendCheckpoint(ctx.dir, key);
    const created = await client.call<Omit<CreateTransferResponse, 'uploadToken'>>('/v1/transfers', {
      body: {
        ...options,
        fileObjects: local.map((f) => ({
          fileName: f.fileName,
          size: f.size,
          ...(f.itemPath ? { itemPath: f.itemPath } : {}),
        })),
      },
    });
    id = created.id;
    link = created.link;
    const matched = matchPlan(created.files, local);
    const cp: SendCheckpoint = {
      transferId: id,
      origin: ctx.origin,
      createdAt: Date.now(),
      files: created.files.map((p) => ({ fileId: p.fileId, path: matched.get(p.fileId)!.path, size: p.size })),
    };
    saveSendCheckpoint(ctx.dir, key, cp);
    files = await Promise.all(
      created.files.map(async (plan) => ({ plan, blob: await openAsBlob(matched.get(plan.fileId)!.path) })),
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
      fetchImpl: fetch,
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
  if (ctx.json)
    ctx.printJson({
      event: 'done',
      id: done.id,
      link: done.link,
      expiryDate: done.expiryDate,
      recipients: done.recipients,
    });
  else {
    ctx.info(done.recipients.length ? `Sent to ${done.recipients.join(', ')}.` : 'Sent.');
    ctx.print(done.link ?? link ?? id);
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
