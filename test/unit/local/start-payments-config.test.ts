/**
 * `npm start` loads the handlers' payments configuration before it starts anything: asked for
 * Stripe without the secret that holds its keys, it stops with one line saying which variable
 * is missing, rather than running the simulator in Stripe's place.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');

function npmStart(env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(PAYMENTS|STRIPE_|APP_ORIGIN)/u.test(k)),
  );
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/dev.ts')], {
    cwd: ROOT,
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('npm start and the payments configuration', () => {
  it('stops at once with one line when PAYMENTS=stripe has no STRIPE_SECRET_ID', () => {
    const run = npmStart({ PAYMENTS: 'stripe' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr.trim()).toBe(
      'npm start: Environment variable STRIPE_SECRET_ID is not set: PAYMENTS=stripe reads the Stripe keys from the Secrets Manager secret it names',
    );
    expect(run.stdout).not.toContain('SendBridge');
  }, 40_000);

  it('stops the same way for a provider it does not know', () => {
    const run = npmStart({ PAYMENTS: 'paypal' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm start: Environment variable PAYMENTS must be simulated or stripe, not paypal');
  }, 40_000);
});
