import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { functionGroupOf, FUNCTION_GROUPS, jobs, routes, type RouteDef } from '../../functions/routes';
import { ENV } from '../../functions/lib/env-names';
import {
  apiBundleName,
  buildLambdaBundles,
  jobBundleName,
  LAMBDA_BUNDLE_FILE,
  lambdaBundleSpecs,
  type LambdaBundle,
} from '../../lib/lambda-bundles';
import { buildEvent } from '../local/gateway/event';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { median } from './machine';

/**
 * Cold init of every Lambda function (each function group and each job): in a fresh Node process,
 * import the bundle and run one representative request or event against the local emulators.
 * Beside each bundle of the current tree, the bundle of the same name built at a baseline commit
 * by that commit's own lib/lambda-bundles.ts (its grouping, its bundler options, its locked
 * dependencies), the two run alternately in the same run; medians of `runs` per side.
 *
 * Options (`npm run bench -- cold-init --baseline=<commit> --runs=<n>`): the baseline defaults to
 * the last commit before functions/ moved to the AWS SDK v3 clients.
 */
export const DEFAULT_BASELINE = '1785fa3';
export const DEFAULT_RUNS = 5;

const CHILD = fileURLToPath(new URL('./cold-init-child.mjs', import.meta.url));

export interface ColdInitOptions {
  readonly baseline?: string;
  readonly runs?: number;
}

interface Probe {
  /** the bundle (lib/lambda-bundles.ts name), the same at the baseline */
  readonly bundle: string;
  readonly request: string;
  readonly event: unknown;
}

const UNKNOWN_SLUG = 'Zz9Zz9Z';
const UNKNOWN_FILE = 'Zz9Zz9Zz9Z';
/** A signed-in caller with no account: each route reads its record from the table first. */
const NOBODY = { sub: 'cold-init-nobody', token_use: 'access' };

type RouteOpts = { url?: string; params?: Record<string, string>; body?: unknown; claims?: Record<string, string> };

function routeProbe(method: RouteDef['method'], routePath: string, opts: RouteOpts = {}): Probe {
  const route = routes.find((r) => r.method === method && r.path === routePath);
  if (!route) throw new Error(`no route ${method} ${routePath}`);
  const body = opts.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(opts.body));
  const event = buildEvent(
    {
      method,
      url: `/api${opts.url ?? routePath}`,
      rawHeaders: opts.body === undefined ? [] : ['content-type', 'application/json'],
      body,
      sourceIp: '127.0.0.1',
      host: 'bench',
    },
    route,
    opts.params ?? {},
    opts.claims,
  );
  return { bundle: apiBundleName(functionGroupOf(route)), request: `${method} /api${routePath}`, event };
}

/**
 * One request per function group, each reaching the table (health: every service), and one
 * event per job as its trigger sends it: the schedule's, or the payload its caller hands it.
 */
export function coldInitProbes(env: Record<string, string>): Probe[] {
  const http = [
    routeProbe('GET', '/health'),
    routeProbe('POST', '/passTokenCheck', { body: { token: 'A'.repeat(43) } }),
    routeProbe('GET', '/me', { claims: NOBODY }),
    routeProbe('GET', '/transfers/{id}/upload-state', {
      url: `/transfers/${UNKNOWN_SLUG}/upload-state`,
      params: { id: UNKNOWN_SLUG },
    }),
    routeProbe('POST', '/getDownload', { body: { id: UNKNOWN_SLUG } }),
    routeProbe('GET', '/getQs', { url: `/getQs?id=${UNKNOWN_SLUG}`, claims: NOBODY }),
    routeProbe('GET', '/analytics', { url: '/analytics?from=2026-10-01&to=2026-10-31', claims: NOBODY }),
    routeProbe('GET', '/requests', { url: `/requests?userid=${NOBODY.sub}`, claims: NOBODY }),
    routeProbe('GET', '/getStripeData', { claims: NOBODY }),
    routeProbe('GET', '/teams', { claims: NOBODY }),
    routeProbe('GET', '/domains', { claims: NOBODY }),
  ];
  const groups = new Set(http.map((p) => p.bundle));
  const missing = Object.keys(FUNCTION_GROUPS).filter((g) => !groups.has(apiBundleName(g)));
  if (missing.length) throw new Error(`cold-init has no probe for the function group(s) ${missing.join(', ')}`);

  const scheduled = {
    version: '0',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    time: new Date().toISOString(),
    resources: [],
    detail: {},
  };
  const buckets = JSON.parse(env[ENV.regionBuckets] ?? '{}') as Record<string, { bucket: string }>;
  const bucket = Object.values(buckets)[0]?.bucket;
  if (!bucket) throw new Error(`the local stack has no ${ENV.regionBuckets}`);
  // What POST /zip, the previews routes and GuardDuty send, for a transfer that does not exist.
  const onDemand: Record<string, { request: string; event: unknown }> = {
    'zip-build': {
      request: 'ZIP of an unknown transfer',
      event: { slug: UNKNOWN_SLUG, contentHash: '0'.repeat(24), attempt: '00000000-0000-4000-8000-000000000000' },
    },
    'complete-upload': {
      request: 'completion of an unknown transfer',
      event: { slug: UNKNOWN_SLUG, fileId: UNKNOWN_FILE, attempt: '00000000-0000-4000-8000-000000000000' },
    },
    thumbnails: {
      request: 'thumbnail of an unknown transfer',
      event: { slug: UNKNOWN_SLUG, fileIds: [UNKNOWN_FILE], claimedAt: Date.now() },
    },
    'malware-scan': {
      request: 'GuardDuty result, unknown transfer',
      event: {
        source: 'aws.guardduty',
        'detail-type': 'GuardDuty Malware Protection Object Scan Result',
        time: new Date().toISOString(),
        detail: {
          scanStatus: 'COMPLETED',
          resourceType: 'S3_OBJECT',
          s3ObjectDetails: { bucketName: bucket, objectKey: `t/${UNKNOWN_SLUG}/${UNKNOWN_FILE}` },
          scanResultDetails: { scanResultStatus: 'NO_THREATS_FOUND', threats: null },
        },
      },
    },
  };
  const jobProbes = jobs.map((job): Probe => {
    if (job.schedule) return { bundle: jobBundleName(job.name), request: 'scheduled event', event: scheduled };
    const p = onDemand[job.name];
    if (!p) throw new Error(`cold-init has no event for the job ${job.name} (no schedule): add one to coldInitProbes`);
    return { bundle: jobBundleName(job.name), ...p };
  });
  return [...http, ...jobProbes];
}

/** A commit's bundles, built in a temporary git worktree by that commit's own lib/lambda-bundles.ts. */
async function baselineBundles(
  ref: string,
  outRoot: string,
): Promise<{ commit: string; bundles: ReadonlyMap<string, LambdaBundle> }> {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  }).trim();
  const tree = path.join(os.tmpdir(), `sendbridge-cold-init-baseline-${commit.slice(0, 12)}`);
  rmSync(tree, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'add', '--detach', '--force', tree, commit], { cwd: REPO_ROOT, stdio: 'ignore' });
  // Its own locked dependencies, installed once per lock file and kept between runs.
  const lock = createHash('sha256')
    .update(readFileSync(path.join(tree, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
  const cachedModules = path.join(os.tmpdir(), `sendbridge-cold-init-modules-${lock}`);
  const modules = path.join(tree, 'node_modules');
  try {
    if (existsSync(cachedModules)) renameSync(cachedModules, modules);
    else {
      console.log(`cold-init: installing ${commit.slice(0, 7)}'s dependencies (npm ci, once per lock file)...`);
      execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'ignore' });
    }
    const bundler = (await import(
      pathToFileURL(path.join(tree, 'lib', 'lambda-bundles.ts')).href
    )) as typeof import('../../lib/lambda-bundles');
    return { commit, bundles: bundler.buildLambdaBundles(bundler.lambdaBundleSpecs(), path.join(outRoot, 'baseline')) };
  } finally {
    if (existsSync(modules)) renameSync(modules, cachedModules);
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: REPO_ROOT, stdio: 'ignore' });
  }
}

interface ChildResult {
  readonly importMs: number;
  readonly firstRequestMs: number;
  readonly totalMs: number;
  /** CPU time of the process (user + system, every thread) over the import, and over import and first request */
  readonly importCpuMs: number;
  readonly totalCpuMs: number;
  readonly statusCode: number | null;
  /** the handler's error, when it threw */
  readonly error: string | null;
}

function coldStart(file: string, event: unknown, env: Record<string, string>): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    // As the Lambda runs it (lib/constructs/api-function.ts sets NODE_OPTIONS=--enable-source-maps).
    const child = spawn(process.execPath, ['--enable-source-maps', CHILD], {
      env: {
        ...env,
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'silent',
        COLD_INIT_CHILD: JSON.stringify({ bundle: file, event }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) return reject(new Error(`cold start of ${file} exited ${code}: ${err.slice(0, 500)}`));
      resolve(JSON.parse(line.slice('RESULT '.length)) as ChildResult);
    });
  });
}

/** Bytes on disk of a bundle's code: every file of its directory but source maps and shipped native packages. */
function codeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.map')) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (path.relative(dir, file).split(path.sep)[0] === 'node_modules') continue;
    total += statSync(file).size;
  }
  return total;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const outcomeOf = (r: ChildResult) =>
  r.error ? `threw ${r.error}` : r.statusCode === null ? 'returned' : String(r.statusCode);

export async function benchColdInit(app: LocalApp, opts: ColdInitOptions = {}) {
  const ref = opts.baseline || DEFAULT_BASELINE;
  const runs = opts.runs ?? DEFAULT_RUNS;
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a positive integer (got ${String(opts.runs)})`);
  const loadAtStart = os.loadavg().map(round1);
  const outRoot = path.join(os.tmpdir(), 'sendbridge-cold-init');
  mkdirSync(outRoot, { recursive: true });
  const baseline = await baselineBundles(ref, outRoot);
  const current = buildLambdaBundles(lambdaBundleSpecs(), path.join(outRoot, 'current'));
  // Credentials and endpoints in the environment, as Lambda hands them (the stack's are the emulators').
  const env = app.stack.env;
  const list = coldInitProbes(env);
  // /health is 200 only once the scheduler has run.
  await app.gateway.runJob('heartbeat');

  const rows = [];
  const skipped: { bundle: string; note: string }[] = [];
  const notes: string[] = [];
  for (const probe of list) {
    const now = current.get(probe.bundle);
    if (!now) throw new Error(`no bundle ${probe.bundle} in the current tree`);
    const before = baseline.bundles.get(probe.bundle);
    if (!before) {
      skipped.push({
        bundle: probe.bundle,
        note: `no bundle ${probe.bundle} at ${baseline.commit.slice(0, 7)}: not measured`,
      });
      continue;
    }
    const files = {
      baseline: path.join(before.dir, LAMBDA_BUNDLE_FILE),
      current: path.join(now.dir, LAMBDA_BUNDLE_FILE),
    };
    const results: { current: ChildResult[]; baseline: ChildResult[] } = { current: [], baseline: [] };
    console.log(`cold-init: ${probe.bundle} (${probe.request}), ${runs} runs a side`);
    for (let i = 0; i < runs; i++) {
      // Alternate, and swap which side goes first each round, so drift in the machine's load and
      // a warm file cache fall on both sides alike.
      const order = i % 2 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
      for (const side of order) results[side].push(await coldStart(files[side], probe.event, env));
    }
    // Both sides run the same request: they should answer alike, and never with a 5xx or a throw.
    const outcomes = {
      baseline: [...new Set(results.baseline.map(outcomeOf))],
      current: [...new Set(results.current.map(outcomeOf))],
    };
    const all = [...outcomes.baseline, ...outcomes.current];
    if (new Set(all).size !== 1 || all.some((o) => o.startsWith('threw') || /^5\d\d$/u.test(o))) {
      notes.push(
        `${probe.bundle}: answers differ or failed (baseline ${outcomes.baseline.join(', ')}; current ${outcomes.current.join(', ')})`,
      );
    }
    const summarise = (rs: ChildResult[]) => ({
      importMs: round1(median(rs.map((r) => r.importMs))),
      firstRequestMs: round1(median(rs.map((r) => r.firstRequestMs))),
      totalMs: round1(median(rs.map((r) => r.totalMs))),
      importCpuMs: round1(median(rs.map((r) => r.importCpuMs))),
      totalCpuMs: round1(median(rs.map((r) => r.totalCpuMs))),
    });
    const c = summarise(results.current);
    const b = summarise(results.baseline);
    rows.push({
      bundle: probe.bundle,
      request: probe.request,
      outcome: outcomes,
      current: { codeBytes: codeBytes(now.dir), ...c },
      baseline: { codeBytes: codeBytes(before.dir), ...b },
      ratio: Math.round((c.totalMs / b.totalMs) * 100) / 100,
      // The same ratio in CPU time: less moved by the load of a shared machine (not the goal's measure).
      cpuRatio: Math.round((c.totalCpuMs / b.totalCpuMs) * 100) / 100,
      runs: results,
    });
  }
  const goal = 1.5;
  return {
    name: 'cold-init',
    baseline: { ref, commit: baseline.commit },
    runsPerSide: runs,
    // The machine is shared: its load (1, 5, 15 min) around the measurements.
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg().map(round1) },
    goal: `total cold init (import + first request) at most ${goal}x the baseline's, per function`,
    rows,
    skipped,
    notes,
    summary: {
      rows: rows.map((r) => ({
        bundle: r.bundle,
        request: r.request,
        outcome: r.outcome.current.join(','),
        kb: `${Math.round(r.baseline.codeBytes / 1000)} -> ${Math.round(r.current.codeBytes / 1000)}`,
        importMs: `${r.baseline.importMs} -> ${r.current.importMs}`,
        firstRequestMs: `${r.baseline.firstRequestMs} -> ${r.current.firstRequestMs}`,
        totalMs: `${r.baseline.totalMs} -> ${r.current.totalMs}`,
        totalCpuMs: `${r.baseline.totalCpuMs} -> ${r.current.totalCpuMs}`,
        ratio: r.ratio,
        cpuRatio: r.cpuRatio,
      })),
      overGoal: rows.filter((r) => r.ratio > goal).map((r) => `${r.bundle} ${r.ratio}`),
      skipped: skipped.map((s) => s.note),
      notes,
      loadAverage: `${loadAtStart.join(' ')} at start, ${os.loadavg().map(round1).join(' ')} at end`,
    },
  };
}
