import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import LongestFirstSequencer from './test/helpers/longest-first-sequencer.ts';

const alias = [
  { find: /^@domain\//, replacement: `${fileURLToPath(new URL('./functions/domain', import.meta.url))}/` },
  { find: /^@\//, replacement: `${fileURLToPath(new URL('./frontend/src', import.meta.url))}/` },
];

/** Warnings the infra tests provoke on purpose (a synth without app origins, mail sender or built app). */
const EXPECTED_CDK_WARNINGS = [
  'sendbridge:config:app-origin',
  'sendbridge:payments:simulated',
  'sendbridge:config:mail-from',
  'sendbridge:web:no-build',
  'sendbridge:china:standalone',
];

/**
 * CDK prints its validation report with console.error on every synth. A report made only of the
 * expected warnings is dropped from the test output; anything else (an error, another warning)
 * still prints.
 */
function isExpectedCdkReport(log: string): boolean {
  if (!log.includes('A copy of this report can be found in')) return false;
  const acknowledgeIds = [...log.matchAll(/Acknowledge with 'Annotation::([^']+)'/g)].map((m) => m[1]!);
  const entries = log.match(/^(WARNING|ERROR|INFO)\b/gm) ?? [];
  return (
    entries.length === acknowledgeIds.length &&
    entries.every((e) => e === 'WARNING') &&
    acknowledgeIds.every((id) => EXPECTED_CDK_WARNINGS.includes(id))
  );
}

// One runner, four levels (conventions §10). Integration and e2e share one pool of workers
// (same group, so their files mix): each project starts its emulators once (global setup), every
// file gets its own namespace on them, and a worker runs at most one file, so one Chromium.
const SERVICE_WORKERS = Number(process.env.SENDBRIDGE_TEST_WORKERS) || 3;
/** expect.poll waits for what must come: up to a minute on a loaded machine (vitest's default is 1 s). */
const POLL = { timeout: 60_000, interval: 100 };

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // integration and e2e files share one pool: the longest of either project start first
    sequence: { sequencer: LongestFirstSequencer },
    onConsoleLog: (log) => (isExpectedCdkReport(log) ? false : undefined),
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Long-lived worker threads, not a fresh process per file: the dependencies load once
          // per worker; test/unit/shared-worker-setup.ts gives each file fresh repository modules
          // and puts back what a file leaves behind (docs/decisions/0065-fast-unit-tests-synth-and-infra-tests.md).
          pool: 'threads',
          isolate: false,
          // React's development warnings (and any other console error) fail the test that caused them.
          setupFiles: ['test/unit/shared-worker-setup.ts', 'test/helpers/console-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // One worker for every file, without a fresh module graph per file: aws-cdk-lib loads
          // once and the files share their synths (test/infra/synth.ts); the app as `cdk synth`
          // writes it is synthesized once per run by the global setup.
          isolate: false,
          globalSetup: ['test/infra/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The storage adapter against moto_server, which keeps S3's rules s3rver does not
          // (test/helpers/moto.ts: a missing moto_server fails, never skips).
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          maxWorkers: SERVICE_WORKERS,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 240_000,
          expect: { poll: POLL },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          maxWorkers: SERVICE_WORKERS,
          sequence: { groupOrder: 1 },
          testTimeout: 180_000,
          hookTimeout: 300_000,
          expect: { poll: POLL },
        },
      },
    ],
  },
});
