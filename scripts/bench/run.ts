/**
 * `npm run bench`: performance measurements against the local stack, written to
 * bench/results/<name>-<timestamp>.json with the machine noted. Medians of alternating
 * rounds, with the baseline measured side by side in the same run.
 * Usage: npm run bench [-- <name> ... [--option=value ...]]   (names: the keys of BENCHES)
 *   cold-init: --baseline=<commit> (default DEFAULT_BASELINE in cold-init.ts), --runs=<n a side>
 *   big-transfer: multi-GB, minutes and ~20 GB of disk; BIG_TRANSFER_SCALE=0.05 for a small try
 *   e2e: encrypted vs plain 1 GiB send and get through the CLI; E2E_BENCH_MIB=64 for a small try
 * Each bench returns its full result with a `summary` (medians and ratios) printed here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalApp, REPO_ROOT, type LocalApp } from '../local/app';
import { benchGatewayOverhead } from './gateway-overhead';
import { benchLighthouse } from './lighthouse';
import { benchCreateTransfer } from './create-transfer';
import { benchColdInit, type ColdInitOptions } from './cold-init';
import { benchGetQs } from './get-qs';
import { benchAnalytics } from './analytics';
import { machineInfo } from './machine';
import { benchUploadThroughput } from './upload-throughput';
import { benchZipBuild } from './zip-build';
import { benchWebhookLatency } from './webhook-latency';
import { benchCliUpload } from './cli-upload';
import { benchSessionCheck } from './session-check';
import { benchDigest } from './digest';
import { benchBigTransfer } from './big-transfer';
import { benchE2e } from './e2e';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'silent';

/** `--name=value` options from the command line; each bench reads the ones it knows. */
type Flags = Readonly<Record<string, string>>;

function coldInitOptions(flags: Flags): ColdInitOptions {
  return {
    ...(flags.baseline ? { baseline: flags.baseline } : {}),
    ...(flags.runs ? { runs: Number(flags.runs) } : {}),
  };
}

const BENCHES = {
  'gateway-overhead': (app: LocalApp) => benchGatewayOverhead(app),
  'create-transfer': (app: LocalApp) => benchCreateTransfer(app),
  'upload-throughput': (app: LocalApp) => benchUploadThroughput(app),
  'zip-build': (app: LocalApp) => benchZipBuild(app),
  'cli-upload': (app: LocalApp) => benchCliUpload(app),
  'cold-init': (app: LocalApp, flags: Flags) => benchColdInit(app, coldInitOptions(flags)),
  'get-qs': (app: LocalApp) => benchGetQs(app),
  analytics: (app: LocalApp) => benchAnalytics(app),
  lighthouse: (app: LocalApp) => benchLighthouse(app),
  'webhook-latency': (app: LocalApp) => benchWebhookLatency(app),
  'session-check': (app: LocalApp) => benchSessionCheck(app),
  digest: (app: LocalApp) => benchDigest(app),
  'big-transfer': (app: LocalApp) => benchBigTransfer(app),
  e2e: (app: LocalApp) => benchE2e(app),
} as const satisfies Record<string, (app: LocalApp, flags: Flags) => Promise<{ summary: unknown }>>;

type BenchName = keyof typeof BENCHES;

async function main() {
  const args = process.argv.slice(2);
  const requested = args.filter((a) => !a.startsWith('-'));
  const flags: Flags = Object.fromEntries(
    args
      .filter((a) => a.startsWith('--'))
      .map((a) => {
        const m = /^--([a-z-]+)=(.*)$/u.exec(a);
        if (!m) throw new Error(`options are --name=value (got ${a})`);
        return [m[1]!, m[2]!];
      }),
  );
  const names = (requested.length ? requested : Object.keys(BENCHES)) as BenchName[];
  for (const n of names)
    if (!(n in BENCHES)) throw new Error(`unknown benchmark ${n}; known: ${Object.keys(BENCHES).join(', ')}`);

  const outDir = path.join(REPO_ROOT, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const app = await startLocalApp({
    ports: 'free',
    appOrigins: ['http://127.0.0.1:5173'],
    appOrigin: 'http://127.0.0.1:5173',
    apiPort: 0,
  });
  try {
    for (const name of names) {
      console.log(`bench ${name}...`);
      // the neighbours' load when the bench starts (machineInfo notes it again at the end)
      const loadAverageAtStart = os.loadavg().map((l) => Math.round(l * 100) / 100);
      const result = await BENCHES[name](app, flags);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outDir, `${name}-${stamp}.json`);
      writeFileSync(
        file,
        `${JSON.stringify({ ...result, machine: machineInfo(), loadAverageAtStart, at: new Date().toISOString() }, null, 2)}\n`,
      );
      console.log(JSON.stringify(result.summary, null, 2));
      console.log(`wrote ${path.relative(REPO_ROOT, file)}`);
    }
  } finally {
    await app.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
