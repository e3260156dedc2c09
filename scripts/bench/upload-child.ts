/**
 * One side of an upload-throughput round in its own process, as a browser is its own machine:
 * the bench process keeps the local API (gateway and functions) and s3rver its own process, so
 * neither side's PUTs share an event loop with the API's handlers.
 * `engine`: the upload engine over the API's routes (sign, record, complete). `raw`: presigned
 * part PUTs (URLs signed by the parent before the clock), no API, no state, no CRC-32.
 * Config in UPLOAD_CHILD (JSON); prints `RESULT {json}`. Timing starts once the file is open.
 */
import { openAsBlob } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { runUpload } from '../../frontend/src/shared/upload/engine';
import { lineFetch, type LineRoutes } from './line-fetch';
import { routeApi } from './route-api';

export type UploadChildConfig =
  | {
      readonly side: 'engine';
      readonly apiOrigin: string;
      readonly transfer: Pick<CreateTransferResponse, 'id' | 'uploadToken' | 'files'>;
      readonly file: string;
      readonly parallelism: number;
      /** another engine module to run instead (a baseline measured in the same rounds) */
      readonly engineModule?: string;
      /** the CRC-32 the engine uses: Node's zlib (the CLI's, default) or the portable one (a browser's) */
      readonly crc?: 'zlib' | 'portable';
      /** through the bench's shaped line (line-child.ts) */
      readonly line?: LineRoutes;
    }
  | {
      readonly side: 'raw';
      readonly urls: readonly string[];
      readonly partSize: number;
      readonly size: number;
      readonly file: string;
      readonly parallelism: number;
      readonly line?: LineRoutes;
    };

export interface UploadChildResult {
  /** start until every part is stored (engine: and recorded), s */
  readonly partsSeconds: number;
  /** engine: start until the file is complete, s */
  readonly seconds?: number;
  /** raw: each part's ETag, for the parent's CompleteMultipartUpload */
  readonly etags?: readonly string[];
  /** CPU seconds (user + system) this process spent in the round */
  readonly cpuSeconds: number;
  /** engine: where its time went, summed over calls (s): part PUTs, sign and record calls */
  readonly calls?: {
    putSeconds: number;
    puts: number;
    signSeconds: number;
    signs: number;
    recordSeconds: number;
    records: number;
  };
}

async function engineSide(cfg: Extract<UploadChildConfig, { side: 'engine' }>): Promise<UploadChildResult> {
  const run = cfg.engineModule
    ? ((await import(cfg.engineModule)) as { runUpload: typeof runUpload }).runUpload
    : runUpload;
  const blob = await openAsBlob(cfg.file);
  let partsAt = 0;
  let started = 0;
  const calls = { putSeconds: 0, puts: 0, signSeconds: 0, signs: 0, recordSeconds: 0, records: 0 };
  const timed =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>, add: (s: number) => void) =>
    async (...args: A): Promise<R> => {
      const t0 = performance.now();
      try {
        return await f(...args);
      } finally {
        add((performance.now() - t0) / 1000);
      }
    };
  const api = routeApi({ apiOrigin: cfg.apiOrigin }, cfg.transfer, () => (partsAt = performance.now()));
  const trace: [string, number, number][] = [];
  const add = (key: 'put' | 'sign' | 'record') => (s: number) => {
    calls[`${key}Seconds`] += s;
    calls[`${key}s`] += 1;
    if (process.env.UPLOAD_CHILD_TRACE) trace.push([key, performance.now() - started - s * 1000, s * 1000]);
  };
  const cpu = process.cpuUsage();
  started = performance.now();
  await run({
    api: {
      ...api,
      sign: timed(api.sign, add('sign')),
      recordPart: timed(api.recordPart, add('record')),
      ...(api.recordParts ? { recordParts: timed(api.recordParts, add('record')) } : {}),
    },
    files: [{ plan: cfg.transfer.files[0]!, blob }],
    fetchImpl: timed(fetch, add('put')) as typeof fetch,
    // as the CLI runs the engine under Node; `portable` as a browser computes it
    ...(cfg.crc === 'portable' ? {} : { crc32: (bytes: Uint8Array, previous: number) => zlibCrc32(bytes, previous) }),
    parallelism: cfg.parallelism,
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (process.env.UPLOAD_CHILD_TRACE) console.error(`TRACE ${JSON.stringify(trace)}`);
  return { partsSeconds: (partsAt - started) / 1000, seconds, cpuSeconds: (used.user + used.system) / 1e6, calls };
}

async function rawSide(cfg: Extract<UploadChildConfig, { side: 'raw' }>): Promise<UploadChildResult> {
  const blob = await openAsBlob(cfg.file);
  const count = cfg.urls.length;
  const etags: string[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(cfg.parallelism, count) }, async () => {
      while (next < count) {
        const i = next++;
        const body = blob.slice(i * cfg.partSize, Math.min(cfg.size, (i + 1) * cfg.partSize));
        const res = await fetch(cfg.urls[i]!, { method: 'PUT', body });
        if (!res.ok) throw new Error(`PUT part ${i + 1}: ${res.status} ${await res.text()}`);
        etags[i] = res.headers.get('etag') ?? '';
      }
    }),
  );
  const partsSeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { partsSeconds, etags, cpuSeconds: (used.user + used.system) / 1e6 };
}

const cfg = JSON.parse(process.env.UPLOAD_CHILD ?? 'null') as UploadChildConfig | null;
if (cfg) {
  // both sides alike: every request to s3rver and the API goes over the same shaped line
  if (cfg.line) globalThis.fetch = lineFetch(cfg.line, globalThis.fetch.bind(globalThis));
  const result = await (cfg.side === 'engine' ? engineSide(cfg) : rawSide(cfg));
  console.log(`RESULT ${JSON.stringify(result)}`);
}
