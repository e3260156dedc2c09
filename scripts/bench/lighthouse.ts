/**
 * Lighthouse (mobile preset, performance only) on the built app's download page and home,
 * served in production form (minified `vite build`, gzip, CloudFront's headers and CSP) by the
 * e2e tests' built-app server, which forwards /api to the local gateway as CloudFront does. The download page shows a
 * real transfer with previews: a guest verifies through the SES inbox, uploads a PDF and two
 * photos (real JPEGs) to s3rver and completes, and the photos' thumbnails are made before the
 * first run. Chromium runs headless with background networking off: nothing leaves 127.0.0.1.
 * Five measured runs per page after one warm-up each, pages alternating; medians recorded, with
 * the machine's load average (1 min) before each run, since the machine is shared.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import sharp from 'sharp';
import lighthouse from 'lighthouse';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { PreviewsResponse } from '../../functions/domain/previews';
import { buildWeb } from '../../frontend/web-bundle';
import { startBuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../local/app';
import { median } from './machine';

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const RUNS = 5;

async function post<T>(
  app: LocalApp,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${app.apiOrigin}/api${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as T };
}

const photo = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg({ quality: 80 })
    .toBuffer();

/** A ready transfer of a PDF and two photos a verified guest sent by email, thumbnails made; returns its link's path. */
async function realTransfer(app: LocalApp): Promise<string> {
  const email = `lighthouse-${Date.now()}@example.com`;
  const asked = await post(app, '/verifyEmail', { email });
  if (asked.status !== 202) throw new Error(`verifyEmail answered ${asked.status}`);
  const { emails } = (await (await fetch(`${app.stack.urls.sesInbox}/store`)).json()) as {
    emails: { destination: { to: string[] }; body: { text: string } }[];
  };
  const code = /\b(\d{5})\b/.exec(emails.filter((m) => m.destination.to.includes(email)).pop()?.body.text ?? '')?.[1];
  if (!code) throw new Error('no verification code mailed');
  const checked = await post<{ senderToken: string }>(app, '/checkVerifyEmail', { email, code });
  if (checked.status !== 200) throw new Error(`checkVerifyEmail answered ${checked.status}`);

  const contents = new Map<string, Buffer>([
    ['quarterly-report.pdf', Buffer.alloc(180_000, 7)],
    ['site-photos/entrance.jpg', await photo(1600, 1200, '#4a7')],
    ['site-photos/lobby.jpg', await photo(1200, 1600, '#a74')],
  ]);
  const created = await post<CreateTransferResponse>(
    app,
    '/transfers',
    {
      sendAs: 'email',
      senderEmail: email,
      emailTo: [{ email: 'recipient@example.com' }],
      message: 'Photos from the site visit and the quarterly report.',
      fileObjects: [...contents].map(([itemPath, data]) => ({
        fileName: path.basename(itemPath),
        size: data.length,
        itemPath,
      })),
    },
    { 'x-sender-token': checked.json.senderToken },
  );
  if (created.status !== 201)
    throw new Error(`create transfer answered ${created.status}: ${JSON.stringify(created.json)}`);
  const t = created.json;
  for (const f of t.files) {
    if (f.mode !== 'single' || !f.url) throw new Error(`expected a single PUT for ${f.fileName}`);
    const put = await fetch(f.url, {
      method: 'PUT',
      body: contents.get(f.itemPath ?? f.fileName) as unknown as BodyInit,
    });
    if (!put.ok) throw new Error(`PUT ${f.fileName} answered ${put.status}`);
    const done = await fetch(`${app.apiOrigin}/api/transfers/${t.id}/files/${f.fileId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
    });
    if (done.status !== 200) throw new Error(`complete file answered ${done.status}`);
  }
  const complete = await fetch(`${app.apiOrigin}/api/transfers/${t.id}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': t.uploadToken },
  });
  if (complete.status !== 200) throw new Error(`complete transfer answered ${complete.status}`);
  // the first previews call starts the thumbnails job; every measured run then shows them made
  for (let tries = 0; ; tries++) {
    const previews = await post<PreviewsResponse>(app, '/getDownload/previews', { id: t.id });
    if (previews.status !== 200) throw new Error(`previews answered ${previews.status}`);
    const states = previews.json.files.flatMap((f) => (f.thumbnail ? [f.thumbnail.status] : []));
    if (states.length === 2 && states.every((s) => s === 'ready')) break;
    if (tries > 100) throw new Error(`thumbnails not made: ${JSON.stringify(states)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
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
  /** the machine's 1-minute load average just before the run */
  readonly loadAverage1m: number;
}

interface NetworkItem {
  readonly resourceType?: string;
  readonly transferSize?: number;
  readonly url: string;
}

async function runLighthouse(url: string, port: number): Promise<RunResult> {
  const load = Number(loadavg()[0]!.toFixed(2));
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const items = (
    (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []
  ).filter((i) => i.resourceType === 'Script');
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    fcpMs: Math.round(audit('first-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Number(audit('cumulative-layout-shift').toFixed(3)),
    speedIndexMs: Math.round(audit('speed-index')),
    scriptTransferKiB: Number((items.reduce((sum, i) => sum + (i.transferSize ?? 0), 0) / 1024).toFixed(1)),
    scriptRequests: items.length,
    loadAverage1m: load,
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
    loadAverage1m: {
      median: of((r) => r.loadAverage1m),
      min: Math.min(...runs.map((r) => r.loadAverage1m)),
      max: Math.max(...runs.map((r) => r.loadAverage1m)),
    },
  };
}

export async function benchLighthouse(app: LocalApp) {
  if (!existsSync(CHROMIUM_PATH)) throw new Error('Chromium is missing: run `apt-get install -y chromium`');
  const startLoad = Number(loadavg()[0]!.toFixed(2));
  const distDir = mkdtempSync(path.join(tmpdir(), 'sendbridge-lighthouse-'));
  await buildWeb(distDir);
  const downloadPath = await realTransfer(app);
  const site = await startBuiltAppServer({
    port: 0,
    apiOrigin: app.apiOrigin,
    storage: [app.stack.urls.s3],
    distDir,
    originSecret: app.originSecret,
  });
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
  const pages = { download: `${site.url}${downloadPath}`, home: `${site.url}/` } as const;
  const runs: Record<keyof typeof pages, RunResult[]> = { download: [], home: [] };
  try {
    for (const url of Object.values(pages)) await runLighthouse(url, chrome.port);
    for (let i = 0; i < RUNS; i++) {
      for (const [name, url] of Object.entries(pages) as [keyof typeof pages, string][])
        runs[name].push(await runLighthouse(url, chrome.port));
    }
  } finally {
    chrome.kill();
    await site.close();
    rmSync(distDir, { recursive: true, force: true });
  }
  return {
    name: 'lighthouse',
    setup: {
      lighthouse:
        '12.2.3, default config (mobile: Moto G Power emulation, simulated slow 4G and 4x CPU), performance category only',
      chromium: `${CHROMIUM_PATH} ${CHROME_FLAGS.join(' ')}`,
      served: 'vite build output (minified), gzip, SPA fallback, /api forwarded to the local gateway; all on 127.0.0.1',
      download: `a ready transfer of a PDF and two JPEG photos, thumbnails made (guest, by email); ${downloadPath.replace(/[^/]+$/, '<slug>')}`,
      runs: `${RUNS} per page after one warm-up each, pages alternating; medians; load average (1 min) taken before each run`,
    },
    summary: {
      download: medians(runs.download),
      home: medians(runs.home),
      loadAverage1mAtStart: startLoad,
      goal: 'performance score >= 95',
    },
    runs,
  };
}
