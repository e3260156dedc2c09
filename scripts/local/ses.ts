import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './child';

const childScript = fileURLToPath(new URL('./ses-child.ts', import.meta.url));

export function startSes(opts: { port: number }): Promise<Child> {
  return startChild('aws-ses-v2-local', process.execPath, ['--import', 'tsx', childScript], {
    env: { ...process.env, SES_PORT: String(opts.port) },
    ready: /SES READY/,
    timeoutMs: 30_000,
  });
}
