/**
 * Lighthouse (mobile preset, performance only) on the built app's download page and home,
 * served in production form (minified `vite build`, gzip, CloudFront's headers and CSP) by the
 * e2e tests' built-app server, which forwards /api to the local gateway as CloudFront does. The download page shows a
 * real transfer: a guest verifies through the SES inbox, uploads three files to s3rver and
 * completes. Chromium runs headless with background networking off: nothing leaves 127.0.0.1.
 * Three measured runs per page after one warm-up each, pages alternating; medians recorded,
 * with the first-load JavaScript per screen from the build's manifest beside them.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { buildWeb, kib, readManifest, screenJs, SCREEN_MODULES, type Screen } from '../../frontend/web-bundle';
import { startBuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../local/app';
import { median } from './machine';

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const RUNS = 3;

async function post<T>(app: LocalApp, route: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: T }> {
  const res = await fetch(`${app.apiOrigin}/api${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as T };
}

/** A ready transfer of three small files a verified guest sent by email; returns its link's path. */
async function realTransfer(app: LocalApp): Promise<string> {
  const email = `lighthouse-${Date.now()}@example.com`;
  const asked = await post(app, '/verifyEmail', { email });
  if (asked.status !== 202) throw new Error(`verifyEmail answered ${asked.status}`);
  const { emails } = (await (await fetch(`${app.stack.urls.sesInbox}/store`)).json()) as { emails: { destination: { to: string[] }; body: { text: string } }[] };
  const code = /\b(\d{5})\b/.exec(emails.filter((m) => m.destination.to.includes(email)).pop()?.body.text ?? '')?.[1];
  if (!code) throw new Error('no verification code mailed');
  const checked = await post<{ senderToken: string }>(app, '/checkVerifyEmail', { email, code });
  if (checked.status !== 200) throw new Error(`checkVerifyEmail answered ${checked.status}`);

  const contents = new Map<string, Buffer>([
    ['quarterly-report.pdf', Buffer.alloc(180_000, 7)],
    ['site-photos/entrance.jpg', Buffer.alloc(420_000, 3)],
    ['site-photos/lobby.jpg', Buffer.alloc(390_000, 5)],
  ]);
  const created = await post<CreateTransferResponse>(
    app,
    '/transfers',
    {
      sendAs: 'email',
      senderEmail: email,
      emailTo: [{ email: 'recipient@example.com' }],
      message: 'Photos from the site visit and the quarterly report.',
      fileObjects: [...contents].map(([itemPath, data]) => ({ fileName: path.basename(itemPath), size: data.length, itemPath })),
    },
    { 'x-sender-token': checked.json.senderToken },
  );
  if (created.status !== 201) throw new Error(`create transfer answered ${created.status}: ${JSON.stringify(created.json)}`);
  const t = created.json;
  for (const f of t.files) {
    if (f.mode !== 'single' || !f.url) throw new Error(`expected a single PUT for ${f.fileName}`);
    const put = await fetch(f.url, { method: 'PUT', body: contents.get(f.itemPath ?? f.fileName) as unknown as BodyInit });
    if (!put.ok) throw new Error(`PUT ${f.fileName} answered ${put.status}`);
    const done = await fetch(`${app.apiOrigin}/api/transfers/${t.id}/files/${f.fileId}/complete`, { method: 'POST', headers: { 'x-upload-token': t.uploadToken } });
    if (done.status !== 200) throw new Error(`complete file answered ${done.status}`);
  }
  const complete = await fetch(`${app.apiOrigin}/api/transfers/${t.id}/complete`, { method: 'POST', headers: { 'x-upload-token': t.uploadToken } });
  if (complete.status !== 200) throw new Error(`complete transfer answered ${complete.status}`);
  return new URL(t.link).pathname;
}

interface RunResult {
  readonly score: number;
  readonly lcpMs: number;
  readonly fcpMs: number;
  readonly tbtMs: number;
  readonly cls: number;
  readonly speedIndexMs: number;
  /** gzip bytes of every script the page fetched, as Lighthouse saw them on the wire */
  readonly scriptTransferKiB: number;
  readonly scriptRequests: number;
}

interface NetworkItem {
  readonly resourceType?: string;
  readonly transferSize?: number;
  readonly url: string;
}

async function runLighthouse(url: string, port: number): Promise<RunResult> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []).filter((i) => i.resourceType === 'Script');
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    fcpMs: Math.round(audit('first-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Number(audit('cumulative-layout-shift').toFixed(3)),
    speedIndexMs: Math.round(audit('speed-index')),
    scriptTransferKiB: Number((items.reduce((sum, i) => sum + (i.transferSize ?? 0), 0) / 1024).toFixed(1)),
    scriptRequests: items.length,
  };
}

function medians(runs: readonly RunResult[]) {
  const of = (pick: (r: RunResult) => number) => median(runs.map(pick));
  return {
    performanceScore: of((r) => r.score),
    lcpMs: of((r) => r.lcpMs),
    fcpMs: of((r) => r.fcpMs),
    tbtMs: of((r) => r.tbtMs),
    cls: of((r) => r.cls),
    speedIndexMs: of((r) => r.speedIndexMs),
    scriptTransferKiB: of((r) => r.scriptTransferKiB),
  };
}

export async function benchLighthouse(app: LocalApp) {
  if (!existsSync(CHROMIUM_PATH)) throw new Error('Chromium is missing: run `apt-get install -y chromium`');
  const distDir = mkdtempSync(path.join(tmpdir(), 'sendbridge-lighthouse-'));
  await buildWeb(distDir);
  const manifest = readManifest(distDir);
  const firstLoadJsKiB = Object.fromEntries(
    (Object.keys(SCREEN_MODULES) as Screen[]).map((screen) => [screen, Number(kib(screenJs(distDir, manifest, screen).gzipBytes))]),
  );
  const downloadPath = await realTransfer(app);
  const site = await startBuiltAppServer({ port: 0, apiOrigin: app.apiOrigin, storage: [app.stack.urls.s3], distDir });
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
  const pages = { download: `${site.url}${downloadPath}`, home: `${site.url}/` } as const;
  const runs: Record<keyof typeof pages, RunResult[]> = { download: [], home: [] };
  try {
    for (const url of Object.values(pages)) await runLighthouse(url, chrome.port);
    for (let i = 0; i < RUNS; i++) {
      for (const [name, url] of Object.entries(pages) as [keyof typeof pages, string][]) runs[name].push(await runLighthouse(url, chrome.port));
    }
  } finally {
    chrome.kill();
    await site.close();
    rmSync(distDir, { recursive: true, force: true });
  }
  return {
    name: 'lighthouse',
    setup: {
      lighthouse: '12.2.3, default config (mobile: Moto G Power emulation, simulated slow 4G and 4x CPU), performance category only',
      chromium: `${CHROMIUM_PATH} ${CHROME_FLAGS.join(' ')}`,
      served: 'vite build output (minified), gzip, SPA fallback, /api forwarded to the local gateway; all on 127.0.0.1',
      download: `a ready transfer of 3 files (guest, by email); ${downloadPath.replace(/[^/]+$/, '<slug>')}`,
      runs: `${RUNS} per page after one warm-up each, pages alternating; medians`,
      firstLoadJs: 'gzip (zlib default level) KiB of the entry + lazy route chunks + static imports, from .vite/manifest.json',
    },
    summary: { download: medians(runs.download), home: medians(runs.home), firstLoadJsKiB, goal: 'performance score >= 95' },
    runs,
  };
}
