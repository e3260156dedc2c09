import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import type { TestProject } from 'vitest/node';
import { createSendBridge } from '../../lib/sendbridge-app';
import { cdkJsonContext, DEPLOYED_CONTEXT } from './context';

declare module 'vitest' {
  export interface ProvidedContext {
    /** directory of the cloud assembly test/infra/global-setup.ts synthesized for this run */
    sendbridgeAssembly: string;
  }
}

/**
 * Synthesizes the app once per infra run as `cdk synth` does, Lambda bundles and asset metadata
 * included, into a temporary directory the test files read (`deployedAssembly()` in ./synth.ts):
 * the bundle budgets and CDK's own CloudFormation validation need the real assembly, and no
 * file pays for it again. CDK's validation is not run here but by validation.test.ts, over
 * this assembly's templates, so a finding fails a test rather than the whole run.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-assembly-'));
  const app = new App({
    outdir: dir,
    context: { ...cdkJsonContext(), ...DEPLOYED_CONTEXT },
    builtinCloudFormationValidation: false,
  });
  createSendBridge(app);
  // The synth prints its report of the setup's expected warnings (no app origin, no mail
  // sender, no web build, payments simulated) on console.error; anything worse still prints.
  const printed: unknown[][] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void printed.push(args);
  try {
    app.synth();
  } finally {
    console.error = error;
  }
  for (const args of printed) if (args.some((a) => /^(ERROR|FATAL)\b/mu.test(String(a)))) error(...args);
  project.provide('sendbridgeAssembly', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
