import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import { createSendBridge, type SendBridgeOptions, type SendBridgeStacks } from '../../lib/sendbridge-app';
import { cdkJsonContext, SYNTH_CONTEXT } from './context';

export { cdkJsonContext } from './context';

export interface TestApp extends SendBridgeStacks {
  readonly app: App;
  template(stack: Stack): Template;
}

/**
 * Synths of this run by context and options: the infra files run one after another in one
 * worker (vitest.config.ts), so every file asking for the same app shares one synth. Callers
 * only read what they get (templates, construct ids).
 */
const synths = new Map<string, TestApp>();

/**
 * The whole app as `npm run synth` (`cdk synth -c regions=hongkong,frankfurt -c payments=simulated`) builds it, minus the slow parts
 * that are not under test: esbuild bundling (`aws:cdk:bundling-stacks: []`) and the built-in
 * CloudFormation schema validation (validation.test.ts runs it once, over `deployedAssembly()`).
 */
export function synthSendBridge(context: Record<string, unknown> = {}, options: SendBridgeOptions = {}): TestApp {
  const key = JSON.stringify({ context, options });
  const known = synths.get(key);
  if (known) return known;
  const app = new App({
    context: { ...cdkJsonContext(), ...SYNTH_CONTEXT, 'aws:cdk:bundling-stacks': [], ...context },
    builtinCloudFormationValidation: false,
  });
  const stacks = createSendBridge(app, options);
  app.synth();
  const templates = new Map<Stack, Template>();
  const synthesized: TestApp = {
    ...stacks,
    app,
    template(stack) {
      let t = templates.get(stack);
      if (!t) {
        t = Template.fromStack(stack);
        templates.set(stack, t);
      }
      return t;
    },
  };
  synths.set(key, synthesized);
  return synthesized;
}

export interface DeployedResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly Metadata?: Record<string, string>;
}

export interface DeployedStack {
  /** the stack's artifact id, which is also its construct path (top-level stacks) */
  readonly id: string;
  readonly templatePath: string;
  readonly account: string | undefined;
  readonly region: string | undefined;
  readonly template: { Resources: Record<string, DeployedResource> };
}

export interface DeployedAssembly {
  readonly directory: string;
  readonly stacks: ReadonlyMap<string, DeployedStack>;
}

interface ManifestArtifact {
  readonly type: string;
  readonly environment?: string;
  readonly properties?: { readonly templateFile?: string };
}

interface Manifest {
  readonly artifacts: Record<string, ManifestArtifact>;
}

/**
 * The cloud assembly synthesized once for this run by global-setup.ts, as `cdk synth` writes it:
 * bundled Lambda code, asset metadata, one template per stack.
 */
export function deployedAssembly(): DeployedAssembly {
  const directory = inject('sendbridgeAssembly');
  const manifest = JSON.parse(readFileSync(path.join(directory, 'manifest.json'), 'utf8')) as Manifest;
  const stacks = new Map<string, DeployedStack>();
  for (const [id, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type !== 'aws:cloudformation:stack' || !artifact.properties?.templateFile) continue;
    const [account, region] = (artifact.environment ?? '').replace(/^aws:\/\//u, '').split('/');
    const templatePath = path.join(directory, artifact.properties.templateFile);
    stacks.set(id, {
      id,
      templatePath,
      account: account && account !== 'unknown-account' ? account : undefined,
      region: region && region !== 'unknown-region' ? region : undefined,
      template: JSON.parse(readFileSync(templatePath, 'utf8')) as DeployedStack['template'],
    });
  }
  return { directory, stacks };
}

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown }>;

export function resourcesOf(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/** Logical id of the CloudFormation resource behind an L2 construct. */
export function logicalId(construct: { node: { defaultChild?: unknown } }, stack: Stack): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnElement);
}
