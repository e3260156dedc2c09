import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../lib/paths';

/** The context of cdk.json (feature flags), so tests synthesize what `cdk synth` does. */
export function cdkJsonContext(): Record<string, unknown> {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> })
    .context;
}

/** The context `npm run synth` adds to cdk.json's (`-c regions=hongkong,frankfurt -c payments=simulated`). */
export const SYNTH_CONTEXT = { regions: 'hongkong,frankfurt', payments: 'simulated' } as const;
/** ... and what the CDK CLI itself sets: asset metadata, which names each function's code directory. */
export const DEPLOYED_CONTEXT = { ...SYNTH_CONTEXT, 'aws:cdk:enable-asset-metadata': true } as const;
