import { runCheck, type CheckResult } from '../lib/checks';
import { getJobRun, roundTripProbe } from '../data/system';
import { checkBuckets } from '../adapters/storage';
import { describeUserPool } from '../adapters/auth';
import { checkMailReachable } from '../adapters/mailer';

const TIMEOUT_MS = 4000;

export interface HealthReport {
  readonly ok: boolean;
  readonly services: {
    readonly table: CheckResult;
    readonly buckets: CheckResult;
    readonly userPool: CheckResult;
    readonly mail: CheckResult;
  };
  /** the heartbeat job's last run (informational: a fresh deploy has none yet) */
  readonly scheduler: { readonly heartbeat: { readonly lastRunAt: string; readonly runs: number } | null };
}

/**
 * Round-trips an item in the table, heads every region's buckets, describes the user pool and
 * asks SES for the account status (sends nothing). The report names pools, regions and errors:
 * it is for operators (logs, `npm start`), never for the public answer of GET /health.
 */
export async function checkHealth(): Promise<HealthReport> {
  const [table, buckets, userPool, mail, heartbeat] = await Promise.all([
    runCheck('table', roundTripProbe, TIMEOUT_MS),
    runCheck(
      'buckets',
      async () => {
        const regions = await checkBuckets();
        const failed = Object.entries(regions).filter(([, r]) => !r.ok);
        if (failed.length) throw new Error(`unreachable: ${failed.map(([id, r]) => `${id} (${r.error})`).join(', ')}`);
        return { regions: Object.keys(regions) };
      },
      TIMEOUT_MS,
    ),
    runCheck('userPool', describeUserPool, TIMEOUT_MS),
    runCheck(
      'mail',
      async () => {
        const account = await checkMailReachable();
        if (!account.sendingEnabled) throw new Error('SES sending is disabled for this account');
        return account;
      },
      TIMEOUT_MS,
    ),
    getJobRun('heartbeat').catch(() => undefined),
  ]);
  const services = { table, buckets, userPool, mail };
  return {
    ok: Object.values(services).every((s) => s.ok),
    services,
    scheduler: {
      heartbeat: heartbeat ? { lastRunAt: new Date(heartbeat.lastRunAt).toISOString(), runs: heartbeat.runs } : null,
    },
  };
}
