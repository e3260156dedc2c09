/**
 * One webhook delivery over HTTP(S), with the SSRF rules of lib/net-guard.ts: the
 * host is resolved now, every answer checked, and the connection made to the checked address
 * (a custom `lookup` answers it, so TLS still verifies the certificate of the host name and
 * sends it as SNI); no redirect is followed (a 3xx is a failed attempt); the answer's body is
 * read up to a cap and the socket dropped beyond it; one deadline covers connect to last byte.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveSafe, UnsafeAddressError, type Lookup } from '../lib/net-guard';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** The bytes of a receiver's answer kept for the log (the rest is not read). */
export const RESPONSE_BODY_CAP = 4096;

export interface HttpAttempt {
  /** the receiver's status; absent when no answer arrived */
  readonly status?: number;
  readonly error?: string;
  /** the first RESPONSE_BODY_CAP bytes of the answer, as text */
  readonly body?: string;
  readonly durationMs: number;
}

const systemLookup: Lookup = async (host) => dnsLookup(host, { all: true, verbatim: true });

export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowLoopback: boolean; lookup?: Lookup; timeoutMs?: number },
): Promise<HttpAttempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(target);
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await resolveSafe(url.hostname, opts.lookup ?? systemLookup, { allowLoopback: opts.allowLoopback });
  } catch (err) {
    const why =
      err instanceof UnsafeAddressError
        ? `refused: ${err.message}`
        : `dns: ${err instanceof Error ? err.message : String(err)}`;
    return { error: why, durationMs: elapsed() };
  }
  // The connection goes to the checked address whatever the resolver would say now.
  const pinnedLookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: pinned.address, family: pinned.family },
      ]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return new Promise<HttpAttempt>((resolve) => {
    let settled = false;
    const done = (a: Omit<HttpAttempt, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...a, durationMs: elapsed() });
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'SendBridge-Webhooks/1',
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_BODY_CAP) {
            chunks.push(chunk.subarray(0, RESPONSE_BODY_CAP - kept));
            kept += Math.min(chunk.length, RESPONSE_BODY_CAP - kept);
          }
          if (kept >= RESPONSE_BODY_CAP) {
            res.destroy();
            done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          }
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      done({ error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message }));
    req.end(body);
  });
}
