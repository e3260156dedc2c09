import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { LocalApp } from '../local/app';
import { createSignedInUser } from '../local/users';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';

/**
 * webhook delivery latency locally, from a recipient's download request (POST
 * /getDownload/file sent) to the `transfer.downloaded` delivery reaching a receiver on
 * loopback: the download's tracking, the outbox write, the local Invoke of the delivery job,
 * the signed HTTP POST. One transfer, `n` sequential downloads; p50 and p99 of the n latencies.
 */
export async function benchWebhookLatency(app: LocalApp, opts = { downloads: 200 }) {
  const arrivals = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200).end('ok');
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        data: { downloadId?: string };
      };
      if (event.type !== 'transfer.downloaded' || !event.data.downloadId) return;
      arrivals.set(event.data.downloadId, at);
      for (const [, resolve] of waiting) resolve(at);
      waiting.clear();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    const user = await createSignedInUser(app, `bench-webhooks-${Date.now()}@example.com`, { role: 'pro' });
    const auth = { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' };
    const api = async (path: string, init: RequestInit) => {
      const res = await fetch(`${app.apiOrigin}/api${path}`, init);
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${path} ${res.status} ${text}`);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    await api('/webhooks', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: receiverUrl, events: ['transfer.downloaded'] }),
    });
    const body = Buffer.from('webhook latency benchmark\n');
    const t = (await api('/me/transfers', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ sendAs: 'link', fileObjects: [{ fileName: 'bench.txt', size: body.length }] }),
    })) as unknown as CreateTransferResponse;
    const f = t.files[0]!;
    const put = await fetch(f.url!, { method: 'PUT', body });
    if (!put.ok) throw new Error(`upload ${put.status}`);
    await api(`/transfers/${t.id}/files/${f.fileId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
    });
    await api(`/transfers/${t.id}/complete`, { method: 'POST', headers: { 'x-upload-token': t.uploadToken } });

    const latencies: number[] = [];
    for (let i = 0; i < opts.downloads; i += 1) {
      const arrived = new Promise<number>((resolve) => waiting.set(String(i), resolve));
      const started = performance.now();
      await api('/getDownload/file', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': 'DE' },
        body: JSON.stringify({ id: t.id, fileId: f.fileId }),
      });
      const at = await Promise.race([
        arrived,
        new Promise<number>((_, reject) => setTimeout(() => reject(new Error('no delivery within 10 s')), 10_000)),
      ]);
      latencies.push(at - started);
      await app.gateway.idle();
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      description:
        'transfer.downloaded webhook latency locally: from sending POST /getDownload/file to the delivery arriving at a loopback receiver (sequential downloads of one transfer, country DE)',
      downloads: opts.downloads,
      deliveries: arrivals.size,
      latenciesMs: latencies.map(round),
      summary: { p50Ms: round(pct(50)), p90Ms: round(pct(90)), p99Ms: round(pct(99)), maxMs: round(latencies.at(-1)!) },
    };
  } finally {
    server.close();
  }
}
