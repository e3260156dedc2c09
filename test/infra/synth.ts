import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '../../lib/paths';
import { createSendBridge, type SendBridgeOptions, type SendBridgeStacks } from '../../lib/sendbridge-app';

/** The context of cdk.json (feature flags), so tests synthesize what `cdk synth` does. */
export function cdkJsonContext(): Record<string, unknown> {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
}

export interface TestApp extends SendBridgeStacks {
  readonly app: App;
  template(stack: Stack): Template;
}

/**
 * The whole app as `npm run synth` (`cdk synth -c regions=hongkong,frankfurt -c payments=simulated`) builds it, minus the slow parts
 * that are not under test: esbuild bundling (`aws:cdk:bundling-stacks: []`) and the built-in
 * CloudFormation schema validation (covered by the real `cdk synth`).
 */
export function synthSendBridge(context: Record<string, unknown> = {}, options: SendBridgeOptions = {}): TestApp {
  const app = new App({
    context: { ...cdkJsonContext(), regions: 'hongkong,frankfurt', payments: 'simulated', 'aws:cdk:bundling-stacks': [], ...context },
    builtinCloudFormationValidation: false,
  });
  const stacks = createSendBridge(app, options);
  app.synth();
  const templates = new Map<Stack, Template>();
  return {
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
}

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown }>;

export function resourcesOf(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/** Logical id of the CloudFormation resource behind an L2 construct. */
export function logicalId(construct: { node: { defaultChild?: unknown } }, stack: Stack): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnElement);
}
