import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, CloudFormationValidatePlugin, type IPolicyValidationContext, type PolicyViolation } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkJsonContext } from './context';
import { deployedAssembly } from './synth';

/**
 * CDK's built-in CloudFormation validation (schemas, best practices, common misconfigurations),
 * which `cdk synth` runs on every synth and cdk.json's @aws-cdk/core:validateAgainstDefaultRules
 * turns into errors. `npm run synth` skips it (`--no-validation`: it was half of the synth's time)
 * and `cdk deploy` still runs it; here it runs once per test run, over the templates
 * `npm run synth` writes, with the same severities: no error may be left.
 */
const engine = new CloudFormationValidatePlugin();
const dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-cfn-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function validate(stackTemplates: IPolicyValidationContext['stackTemplates']): PolicyViolation[] {
  // The engine reads the templates; the construct tree only serves acknowledgements, which the app makes for cdk-nag only.
  return engine.validate({
    templatePaths: stackTemplates.map((s) => s.templatePath),
    stackTemplates,
    appConstruct: new App(),
  }).violations;
}

const describeViolation = (v: PolicyViolation) =>
  `${v.severity} ${v.ruleName}: ${v.description} (${v.violatingResources.map((r) => `${path.basename(r.templatePath ?? '?')} ${r.resourceLogicalId ?? r.constructPath ?? ''}`).join(', ')})`;

describe("CDK's CloudFormation validation of the synthesized app", () => {
  it('is switched to errors in cdk.json, as `cdk deploy` runs it', () => {
    expect(cdkJsonContext()['@aws-cdk/core:validateAgainstDefaultRules']).toBe(true);
  });

  it('finds no error in any stack', () => {
    const stacks = [...deployedAssembly().stacks.values()];
    expect(stacks.length).toBeGreaterThanOrEqual(4);
    const violations = validate(
      stacks.map((s) => ({
        stackConstructPath: s.id,
        templatePath: s.templatePath,
        accountId: s.account,
        region: s.region,
      })),
    );
    expect(violations.filter((v) => v.severity === 'error' || v.severity === 'fatal').map(describeViolation)).toEqual(
      [],
    );
  }, 120_000);

  it('reports a broken template (the validator really runs)', () => {
    const broken = path.join(dir, 'broken.template.json');
    writeFileSync(
      broken,
      JSON.stringify({
        Resources: {
          Bucket: {
            Type: 'AWS::S3::Bucket',
            Properties: { NoSuchProperty: 1, VersioningConfiguration: { Status: 'Sometimes' } },
          },
        },
      }),
    );
    const violations = validate([
      { stackConstructPath: 'Broken', templatePath: broken, accountId: '123456789012', region: 'eu-central-1' },
    ]);
    expect(violations.length, violations.map(describeViolation).join('\n')).toBeGreaterThan(0);
  }, 120_000);
});
