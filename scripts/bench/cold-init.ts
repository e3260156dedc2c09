import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { functionGroupOf, jobs, routes, type RouteDef } from '../../functions/routes';
import { apiBundleName, buildLambdaBundles, ESBUILD_OPTIONS, jobBundleName, LAMBDA_BUNDLE_FILE, lambdaBundleSpecs } from '../../lib/lambda-bundles';
import { buildEvent } from '../local/gateway/event';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { median } from './machine';

/**
 * Cold init of every Lambda bundle: in a fresh Node process, import the bundle and run its first
 * request against the local emulators (median of `runs`). Beside each grouped function of today,
 * the baseline: the per-route bundle that served the same request before the routes were
 * grouped (commit BASELINE_REF, bundled as its NodejsFunction did), run alternately.
 */
export const BASELINE_REF = '3854f51';

const CHILD = fileURLToPath(new URL('./cold-init-child.mjs', import.meta.url));

interface Probe {
  /** the bundle of today (lib/lambda-bundles.ts name) */
  readonly bundle: string;
  /** the baseline's module that served the same request */
  readonly baselineHandler: string;
  readonly event: unknown;
  /** what the first request must answer (null: a job, no HTTP status) */
  readonly status: number | null;
}

function routeEvent(method: RouteDef['method'], routePath: string, opts: { url?: string; params?: Record<string, string>; body?: unknown; claims?: Record<string, string> } = {}) {
  const route = routes.find((r) => r.method === method && r.path === routePath);
  if (!route) throw new Error(`no route ${method} ${routePath}`);
  const body = opts.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(opts.body));
  const event = buildEvent(
    { method, url: `/api${opts.url ?? routePath}`, rawHeaders: opts.body === undefined ? [] : ['content-type', 'application/json'], body, sourceIp: '127.0.0.1', host: 'bench' },
    route,
    opts.params ?? {},
    opts.claims,
  );
  return { route, event };
}

/** One request per function that reaches the table (and for health, every service). */
function probes(): Probe[] {
  const unknownSlug = 'Zz9Zz9Z';
  const http: { method: RouteDef['method']; path: string; status: number; opts?: Parameters<typeof routeEvent>[2] }[] = [
    { method: 'GET', path: '/health', status: 200 },
    { method: 'POST', path: '/passTokenCheck', status: 410, opts: { body: { token: 'A'.repeat(43) } } },
    { method: 'GET', path: '/me', status: 401, opts: { claims: { sub: 'cold-init-nobody', token_use: 'access' } } },
    { method: 'GET', path: '/transfers/{id}/upload-state', status: 404, opts: { url: `/transfers/${unknownSlug}/upload-state`, params: { id: unknownSlug } } },
    { method: 'POST', path: '/getDownload', status: 404, opts: { body: { id: unknownSlug } } },
  ];
  const list: Probe[] = http.map((p) => {
    const { route, event } = routeEvent(p.method, p.path, p.opts);
    return { bundle: apiBundleName(functionGroupOf(route)), baselineHandler: route.handler, event, status: p.status };
  });
  const jobEvents: Record<string, unknown> = {
    heartbeat: { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} },
    'expiry-sweep': { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} },
    'zip-build': { slug: unknownSlug, contentHash: '0'.repeat(24) },
  };
  for (const job of jobs) list.push({ bundle: jobBundleName(job.name), baselineHandler: job.handler, event: jobEvents[job.name], status: null });
  return list;
}

/** The baseline's per-route bundles, built from a worktree of BASELINE_REF with its NodejsFunction options. */
function baselineBundles(handlers: readonly string[], outRoot: string): Map<string, string> {
  const tree = path.join(os.tmpdir(), `sendbridge-baseline-${BASELINE_REF}`);
  if (!existsSync(path.join(tree, 'functions'))) {
    rmSync(tree, { recursive: true, force: true });
    execFileSync('git', ['worktree', 'prune'], { cwd: REPO_ROOT });
    execFileSync('git', ['worktree', 'add', '--detach', '--force', tree, BASELINE_REF], { cwd: REPO_ROOT, stdio: 'ignore' });
  }
  if (!existsSync(path.join(tree, 'node_modules'))) symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  const out = new Map<string, string>();
  for (const handler of handlers) {
    const file = path.join(outRoot, 'baseline', handler.replace(/\//g, '-'), LAMBDA_BUNDLE_FILE);
    // Today's options less the two this issue added (the env-only credentials alias, no legal
    // comments): what NodejsFunction bundled at BASELINE_REF.
    esbuild.buildSync({
      ...ESBUILD_OPTIONS,
      alias: {},
      legalComments: 'eof',
      tsconfig: path.join(tree, 'tsconfig.json'),
      entryPoints: [path.join(tree, 'functions', `${handler}.ts`)],
      outfile: file,
    });
    out.set(handler, file);
  }
  return out;
}

interface ChildResult {
  readonly importMs: number;
  readonly firstRequestMs: number;
  readonly totalMs: number;
  readonly statusCode: number | null;
}

function coldStart(bundle: string, event: unknown, env: Record<string, string>): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', CHILD], {
      env: { ...env, PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', COLD_INIT_CHILD: JSON.stringify({ bundle, event }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) return reject(new Error(`cold start of ${bundle} exited ${code}: ${err.slice(0, 500)}`));
      resolve(JSON.parse(line.slice('RESULT '.length)) as ChildResult);
    });
  });
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export async function benchColdInit(app: LocalApp, opts = { runs: 5 }) {
  const outRoot = path.join(os.tmpdir(), 'sendbridge-cold-init');
  mkdirSync(outRoot, { recursive: true });
  const current = buildLambdaBundles(lambdaBundleSpecs(), path.join(outRoot, 'current'));
  const list = probes();
  const baseline = baselineBundles([...new Set(list.map((p) => p.baselineHandler))], outRoot);
  // Credentials in the environment, as Lambda hands them (the stack's are the emulators').
  const env = app.stack.env;
  // /health is 200 only once the scheduler has run.
  await app.gateway.runJob('heartbeat');

  const rows = [];
  for (const probe of list) {
    const now = path.join(current.get(probe.bundle)!.dir, LAMBDA_BUNDLE_FILE);
    const before = baseline.get(probe.baselineHandler)!;
    const runs: { current: ChildResult[]; baseline: ChildResult[] } = { current: [], baseline: [] };
    for (let i = 0; i < opts.runs; i++) {
      // Alternate, so drift in machine load falls on both sides alike.
      for (const [side, file] of [['baseline', before], ['current', now]] as const) {
        const r = await coldStart(file, probe.event, env);
        if (probe.status !== null && r.statusCode !== probe.status) {
          throw new Error(`${side} ${probe.bundle}: first request answered ${r.statusCode} ${(r as { body?: string }).body ?? ""}, expected ${probe.status}`);
        }
        runs[side].push(r);
      }
    }
    const summarise = (rs: ChildResult[]) => ({
      importMs: round1(median(rs.map((r) => r.importMs))),
      firstRequestMs: round1(median(rs.map((r) => r.firstRequestMs))),
      totalMs: round1(median(rs.map((r) => r.totalMs))),
    });
    const c = summarise(runs.current);
    const b = summarise(runs.baseline);
    rows.push({
      bundle: probe.bundle,
      request: (probe.event as { routeKey?: string }).routeKey ?? 'job event',
      current: { bytes: statSync(now).size, ...c },
      baseline: { module: probe.baselineHandler, bytes: statSync(before).size, ...b },
      ratio: Math.round((c.totalMs / b.totalMs) * 100) / 100,
      runs,
    });
  }
  return {
    name: 'cold-init',
    baselineRef: BASELINE_REF,
    runsPerSide: opts.runs,
    rows,
    summary: rows.map((r) => ({
      bundle: r.bundle,
      request: r.request,
      kb: `${Math.round(r.baseline.bytes / 1000)} -> ${Math.round(r.current.bytes / 1000)}`,
      medianTotalMs: `${r.baseline.totalMs} -> ${r.current.totalMs}`,
      ratio: r.ratio,
    })),
  };
}
