import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { functionGroupOf, jobs, routes, type RouteDef } from '../../functions/routes';
import { apiBundleName, buildLambdaBundles, jobBundleName, LAMBDA_BUNDLE_FILE, lambdaBundleSpecs } from '../../lib/lambda-bundles';
import { buildEvent } from '../local/gateway/event';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { median } from './machine';

/**
 * Cold init of every Lambda bundle: in a fresh Node process, import the bundle and run its first
 * request against the local emulators (median of `runs`). Beside each bundle of today, the
 * baseline: the bundle of the same name built at BASELINE_REF by that commit's own
 * lib/lambda-bundles.ts (same grouping, its bundler options), run alternately.
 * COLD_INIT_BASELINE=<ref> picks another baseline commit.
 */
export const BASELINE_REF = process.env.COLD_INIT_BASELINE || '87177d4';

const CHILD = fileURLToPath(new URL('./cold-init-child.mjs', import.meta.url));

interface Probe {
  /** the bundle (lib/lambda-bundles.ts name), today and at the baseline */
  readonly bundle: string;
  readonly event: unknown;
  /** whether an HTTP answer is expected (jobs answer none) */
  readonly http: boolean;
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
  const nobody = { sub: 'cold-init-nobody', token_use: 'access' };
  const http: { method: RouteDef['method']; path: string; opts?: Parameters<typeof routeEvent>[2] }[] = [
    { method: 'GET', path: '/health' },
    { method: 'POST', path: '/passTokenCheck', opts: { body: { token: 'A'.repeat(43) } } },
    { method: 'GET', path: '/me', opts: { claims: nobody } },
    { method: 'GET', path: '/transfers/{id}/upload-state', opts: { url: `/transfers/${unknownSlug}/upload-state`, params: { id: unknownSlug } } },
    { method: 'POST', path: '/getDownload', opts: { body: { id: unknownSlug } } },
    { method: 'GET', path: '/getQs', opts: { url: `/getQs?id=${unknownSlug}`, claims: nobody } },
    { method: 'GET', path: '/analytics', opts: { claims: nobody } },
    { method: 'GET', path: '/requests', opts: { claims: nobody } },
  ];
  const list: Probe[] = http.map((p) => {
    const { route, event } = routeEvent(p.method, p.path, p.opts);
    return { bundle: apiBundleName(functionGroupOf(route)), event, http: true };
  });
  const scheduled = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };
  const onDemand: Record<string, unknown> = { 'zip-build': { slug: unknownSlug, contentHash: '0'.repeat(24) } };
  for (const job of jobs) list.push({ bundle: jobBundleName(job.name), event: job.schedule ? scheduled : onDemand[job.name], http: false });
  return list;
}

/** The baseline's bundles, built in a worktree of BASELINE_REF by its own lib/lambda-bundles.ts. */
async function baselineBundles(outRoot: string): Promise<ReadonlyMap<string, { dir: string }>> {
  const tree = path.join(os.tmpdir(), `sendbridge-baseline-${BASELINE_REF}`);
  if (!existsSync(path.join(tree, 'functions'))) {
    rmSync(tree, { recursive: true, force: true });
    execFileSync('git', ['worktree', 'prune'], { cwd: REPO_ROOT });
    execFileSync('git', ['worktree', 'add', '--detach', '--force', tree, BASELINE_REF], { cwd: REPO_ROOT, stdio: 'ignore' });
  }
  // Its own locked dependencies (the AWS SDK clients it bundled are not all ours any more).
  const modules = path.join(tree, 'node_modules');
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) rmSync(modules);
  if (!existsSync(modules)) execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'ignore' });
  const bundler = (await import(pathToFileURL(path.join(tree, 'lib', 'lambda-bundles.ts')).href)) as typeof import('../../lib/lambda-bundles');
  return bundler.buildLambdaBundles(bundler.lambdaBundleSpecs(), path.join(outRoot, 'baseline'));
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
  const baseline = await baselineBundles(outRoot);
  const list = probes();
  // Credentials in the environment, as Lambda hands them (the stack's are the emulators').
  const env = app.stack.env;
  // /health is 200 only once the scheduler has run.
  await app.gateway.runJob('heartbeat');

  const rows = [];
  for (const probe of list) {
    const now = path.join(current.get(probe.bundle)!.dir, LAMBDA_BUNDLE_FILE);
    const beforeDir = baseline.get(probe.bundle)?.dir;
    if (!beforeDir) throw new Error(`no bundle ${probe.bundle} at ${BASELINE_REF}`);
    const before = path.join(beforeDir, LAMBDA_BUNDLE_FILE);
    const runs: { current: ChildResult[]; baseline: ChildResult[] } = { current: [], baseline: [] };
    for (let i = 0; i < opts.runs; i++) {
      // Alternate, so drift in machine load falls on both sides alike.
      for (const [side, file] of [['baseline', before], ['current', now]] as const) {
        const r = await coldStart(file, probe.event, env);
        runs[side].push(r);
      }
    }
    // Both sides run the same request: they must answer alike, and never a 5xx.
    if (probe.http) {
      const statuses = new Set([...runs.baseline, ...runs.current].map((r) => r.statusCode));
      if (statuses.size !== 1 || [...statuses].some((s) => s === null || s >= 500)) {
        throw new Error(`${probe.bundle}: first requests answered ${[...statuses].join(', ')} (${(runs.current[0] as { body?: string }).body ?? ''})`);
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
      status: runs.current[0]!.statusCode,
      current: { bytes: statSync(now).size, ...c },
      baseline: { bytes: statSync(before).size, ...b },
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
      status: r.status,
      kb: `${Math.round(r.baseline.bytes / 1000)} -> ${Math.round(r.current.bytes / 1000)}`,
      medianImportMs: `${r.baseline.importMs} -> ${r.current.importMs}`,
      medianTotalMs: `${r.baseline.totalMs} -> ${r.current.totalMs}`,
      ratio: r.ratio,
    })),
  };
}
