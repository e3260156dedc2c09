/**
 * Test doubles for the upload engine's two boundaries: a real HTTP server on 127.0.0.1 that
 * plays the bucket (presigned PUTs, ETag = MD5 of the body, scripted faults), and an UploadApi
 * that signs URLs for it and records what the engine reports, as the transfer API would.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  CompleteFileRequest,
  RecordPartRequest,
  SignRequest,
  SignResponse,
} from '../../../functions/domain/transfer-api';
import type { FileCompletion, UploadApi } from '../../../frontend/src/shared/upload/engine';

/** What the bucket does with one request to a key; requests consume a key's faults in order. */
export type Fault =
  | { kind: 'status'; status: number; code?: string; message?: string }
  | { kind: 'expired' }
  /** closes the connection after part of the body arrived */
  | { kind: 'drop' };

export interface PutRecord {
  readonly key: string;
  readonly fileId: string;
  readonly part: number | null;
  /** 1-based count of requests to this key */
  readonly attempt: number;
  /** requests being served when this one arrived, itself included */
  readonly activeAtStart: number;
  readonly url: string;
  status?: number;
  /** the request was closed by the client before an answer */
  aborted?: boolean;
}

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

function s3Error(res: http.ServerResponse, status: number, code: string, message: string, requestId: string) {
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>${requestId}</RequestId></Error>`,
  );
}

export class FakeBucket {
  readonly objects = new Map<string, Buffer>();
  readonly puts: PutRecord[] = [];
  /** answer delay for every PUT, ms */
  delayMs = 0;
  /**
   * Holds every answer until this many PUTs have been in flight at once: a test of the
   * engine's concurrency then sees it reached, whatever the machine's speed, without a delay.
   */
  holdUntilActive = 0;
  active = 0;
  maxActive = 0;
  private held: (() => void)[] = [];
  private readonly faults = new Map<string, Fault[]>();
  private readonly attempts = new Map<string, number>();
  private readonly sockets = new Set<import('node:net').Socket>();
  private requestIds = 0;
  private server!: http.Server;
  origin = '';

  static key(fileId: string, part: number | null): string {
    return part === null ? fileId : `${fileId}#${part}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** URL the fake API hands out; `exp` is checked like S3 checks X-Amz-Expires. */
  url(fileId: string, part: number | null, expiresAt: number, sig: number): string {
    const q = new URLSearchParams({ exp: String(expiresAt), sig: String(sig) });
    if (part !== null) q.set('partNumber', String(part));
    return `${this.origin}/bucket/${fileId}?${q}`;
  }

  fail(fileId: string, part: number | null, ...faults: Fault[]): void {
    const key = FakeBucket.key(fileId, part);
    this.faults.set(key, [...(this.faults.get(key) ?? []), ...faults]);
  }

  /** Fails every request to the key from now on. */
  failAlways(fileId: string, part: number | null, fault: Fault): void {
    this.fail(fileId, part, ...Array.from({ length: 1000 }, () => fault));
  }

  /** Answers every held PUT now and holds no more. */
  releaseHeld(): void {
    this.holdUntilActive = 0;
    for (const release of this.held.splice(0)) release();
  }

  putsTo(fileId: string, part: number | null = null): PutRecord[] {
    const key = FakeBucket.key(fileId, part);
    return this.puts.filter((p) => p.key === key);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', this.origin);
    const [, bucket, fileId] = url.pathname.split('/');
    if (req.method !== 'PUT' || bucket !== 'bucket' || !fileId) {
      s3Error(res, 405, 'MethodNotAllowed', 'only PUT', 'req-x');
      return;
    }
    const partParam = url.searchParams.get('partNumber');
    const part = partParam === null ? null : Number(partParam);
    const key = FakeBucket.key(fileId, part);
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    if (this.maxActive >= this.holdUntilActive) for (const release of this.held.splice(0)) release();
    const record: PutRecord = { key, fileId, part, attempt, activeAtStart: this.active, url: req.url ?? '' };
    this.puts.push(record);
    const requestId = `req-${++this.requestIds}`;
    let ended = false;
    const end = () => {
      if (!ended) {
        ended = true;
        this.active -= 1;
      }
    };
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
      end();
    });

    const fault = this.faults.get(key)?.shift();
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      received += c.length;
      if (fault?.kind === 'drop' && received > 0) {
        record.aborted = true;
        req.socket.destroy();
      }
    });
    req.on('error', () => end());
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const answer = () => {
        if (res.destroyed) return;
        const expiresAt = Number(url.searchParams.get('exp'));
        if (fault?.kind === 'expired' || !(expiresAt > Date.now())) {
          record.status = 403;
          s3Error(res, 403, 'AccessDenied', 'Request has expired', requestId);
        } else if (fault?.kind === 'status') {
          record.status = fault.status;
          s3Error(
            res,
            fault.status,
            fault.code ?? 'InternalError',
            fault.message ?? 'We encountered an internal error. Please try again.',
            requestId,
          );
        } else {
          this.objects.set(key, body);
          record.status = 200;
          res.writeHead(200, { etag: `"${md5(body)}"`, 'x-amz-request-id': requestId, 'content-length': '0' });
          res.end();
        }
      };
      const release = () => (this.delayMs > 0 ? void setTimeout(answer, this.delayMs) : answer());
      if (this.maxActive < this.holdUntilActive) this.held.push(release);
      else release();
    });
  }
}

export interface FakeApiOptions {
  /** lifetime of signed URLs, ms (default 1 hour) */
  ttlMs?: number;
  /** thrown by sign() on its next calls, in order */
  signErrors?: unknown[];
  /** thrown by completeFile() on its next calls, in order */
  completeErrors?: unknown[];
}

/** The transfer API as the engine sees it: signs URLs for the bucket, records parts, completes. */
export class FakeUploadApi implements UploadApi {
  readonly signCalls: SignRequest[] = [];
  readonly recorded: RecordPartRequest[] = [];
  readonly completed: string[] = [];
  /** what each complete call carried besides the file id (a single PUT's crc32) */
  readonly completeRequests: { fileId: string; req: CompleteFileRequest | undefined }[] = [];
  /** order of all calls, e.g. 'sign:f1', 'part:f1:3', 'complete:f1' */
  readonly log: string[] = [];
  private sig = 0;

  constructor(
    private readonly bucket: FakeBucket,
    private readonly opts: FakeApiOptions = {},
  ) {}

  /** Every URL handed out so far, by signature number. */
  readonly issued = new Map<number, string>();

  async sign(req: SignRequest): Promise<SignResponse> {
    this.signCalls.push(req);
    this.log.push(`sign:${req.fileId}`);
    const err = this.opts.signErrors?.shift();
    if (err !== undefined) throw err;
    const expiresAt = Date.now() + (this.opts.ttlMs ?? 3_600_000);
    const issue = (part: number | null) => {
      const sig = ++this.sig;
      const url = this.bucket.url(req.fileId, part, expiresAt, sig);
      this.issued.set(sig, url);
      return url;
    };
    if (!req.partNumbers) return { fileId: req.fileId, url: issue(null), expiresAt };
    return {
      fileId: req.fileId,
      parts: req.partNumbers.map((partNumber) => ({ partNumber, url: issue(partNumber) })),
      expiresAt,
    };
  }

  async recordPart(req: RecordPartRequest): Promise<void> {
    this.log.push(`part:${req.fileId}:${req.partNumber}`);
    this.recorded.push(req);
  }

  // biome-ignore lint/suspicious/noConfusingVoidType: as UploadApi: resolving nothing means complete
  async completeFile(fileId: string, _init?: unknown, req?: CompleteFileRequest): Promise<FileCompletion | void> {
    this.log.push(`complete:${fileId}`);
    this.completeRequests.push({ fileId, req });
    const err = this.opts.completeErrors?.shift();
    if (err !== undefined) throw err;
    this.completed.push(fileId);
  }

  /** A signed URL for a single PUT, as the create call's plan would carry it. */
  planUrl(fileId: string, ttlMs = 3_600_000): string {
    return this.bucket.url(fileId, null, Date.now() + ttlMs, 0);
  }

  /**
   * The object as CompleteMultipartUpload would build it from the recorded parts: each
   * recorded ETag must be the MD5 of what the bucket holds for that part.
   */
  assembled(fileId: string, partCount: number): Buffer {
    const parts: Buffer[] = [];
    for (let n = 1; n <= partCount; n++) {
      const rec = this.recorded.filter((r) => r.fileId === fileId && r.partNumber === n).at(-1);
      if (!rec) throw new Error(`part ${n} of ${fileId} was never recorded`);
      const body = this.bucket.objects.get(FakeBucket.key(fileId, n));
      if (!body) throw new Error(`part ${n} of ${fileId} is not in the bucket`);
      if (rec.etag !== `"${md5(body)}"`)
        throw new Error(`part ${n} of ${fileId}: recorded ETag ${rec.etag} is not the stored part's`);
      if (rec.size !== body.length)
        throw new Error(`part ${n} of ${fileId}: recorded size ${rec.size}, stored ${body.length}`);
      parts.push(body);
    }
    return Buffer.concat(parts);
  }
}
