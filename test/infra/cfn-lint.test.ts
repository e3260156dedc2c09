import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from 'aws-cdk-lib';
import { REPO_ROOT } from '../../lib/paths';
import { REGION_CONFIG } from '../../lib/region-config';
import { synthSendBridge } from './synth';

const run = promisify(execFile);

interface Finding {
  readonly Rule: { readonly Id: string };
  readonly Message: string;
  readonly Filename: string;
  readonly Location: { readonly Path?: readonly (string | number)[] };
}

/** Every region the product knows, China's included, and the optional parts switched on. */
const SETUPS: Record<string, Record<string, string>> = {
  'all regions, home Singapore': {
    regions: Object.keys(REGION_CONFIG).join(','),
    chinaAccount: '111122223333',
  },
  'custom domain, payments by Stripe, tenant domains, a rotated origin secret, home Frankfurt': {
    regions: 'frankfurt,dubai',
    homeRegion: 'eu-central-1',
    appOrigins: 'https://send.example.com',
    domainName: 'send.example.com',
    certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
    customDomainTarget: 'd123.cloudfront-routing.example',
    abuseReportTo: 'abuse@example.com',
    originVerifyVersion: '8f14e45f-ceea-467f-a0e6-3f1a2b4c5d6e',
    payments: 'stripe',
    stripePrices: JSON.stringify(
      Object.fromEntries(
        ['pro', 'team', 'teamelite'].flatMap((p) => ['month', 'year'].map((t) => [`${p}/${t}`, `price_${p}_${t}`])),
      ),
    ),
  },
};

const dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-cfn-lint-'));
/** template file -> the region its stack deploys to (cfn-lint checks resource types per region) */
const templates = new Map<string, string>();

/**
 * A template as linted: its region in cfn-lint's own template configuration (Metadata
 * `cfn-lint.config.regions`), so one cfn-lint process checks templates of several regions,
 * each against its own, instead of one process per region.
 */
function forRegion(template: Record<string, unknown>, region: string): Record<string, unknown> {
  const metadata = (template.Metadata ?? {}) as Record<string, unknown>;
  return { ...template, Metadata: { ...metadata, 'cfn-lint': { config: { regions: [region] } } } };
}

beforeAll(() => {
  for (const [setup, context] of Object.entries(SETUPS)) {
    const t = synthSendBridge(context);
    const stacks = t.app.node.findAll().filter((c): c is Stack => Stack.isStack(c));
    for (const stack of stacks) {
      const file = path.join(dir, `${setup.replace(/\W+/gu, '-')}--${stack.stackName}.json`);
      const template = t.template(stack).toJSON() as Record<string, unknown>;
      writeFileSync(file, JSON.stringify(forRegion(template, stack.region)));
      templates.set(file, stack.region);
    }
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lints files whose regions are in their own Metadata (forRegion). */
async function lint(files: readonly string[]): Promise<Finding[]> {
  const args = ['--config-file', path.join(REPO_ROOT, '.cfnlintrc.yaml'), '--format', 'json', '--', ...files];
  try {
    const { stdout } = await run('cfn-lint', args, { maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout || '[]') as Finding[];
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stdout?: string };
    if (err.code === 'ENOENT')
      throw new Error('cfn-lint is not installed: `pip install cfn-lint==1.51.*` (CI requires it)');
    // cfn-lint exits non-zero when it finds something; its findings are still on stdout.
    if (err.stdout) return JSON.parse(err.stdout) as Finding[];
    throw e;
  }
}

describe('cfn-lint on every synthesized template', () => {
  it('synthesizes every stack of both setups', () => {
    const names = [...templates.keys()].map((f) => path.basename(f));
    expect(names.some((n) => n.includes('SendBridgeCN-Storage-Guangzhou'))).toBe(true);
    expect(names.filter((n) => n.includes('SendBridge-Web')).length).toBe(2);
    expect(templates.size).toBeGreaterThanOrEqual(12);
  });

  it('finds no error and no warning outside the waived classes of .cfnlintrc.yaml', async () => {
    // Two processes for two cores, each with half of the templates (by turns, so both get a core stack).
    const files = [...templates.keys()];
    const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
    const findings = (await Promise.all(halves.map((half) => lint(half)))).flat();
    const lines = findings.map(
      (f) => `${f.Rule.Id} ${path.basename(f.Filename)} ${(f.Location.Path ?? []).join('/')}: ${f.Message}`,
    );
    expect(lines).toEqual([]);
  }, 600_000); // cfn-lint over 12 templates: minutes of Python on a loaded 2-core machine

  it('reports a broken template (the linter really runs), and checks it against its own region', async () => {
    const broken = path.join(dir, 'broken.json');
    writeFileSync(
      broken,
      JSON.stringify(
        forRegion(
          {
            Resources: {
              Api: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'x', ProtocolType: 'HTTP' } },
              Origin: {
                Type: 'AWS::SSM::Parameter',
                Properties: {
                  Type: 'String',
                  Value: {
                    'Fn::Select': [
                      2,
                      {
                        'Fn::Split': [
                          '/',
                          { 'Fn::GetStackOutput': { StackName: 'a', Region: 'ap-southeast-1', OutputName: 'b' } },
                        ],
                      },
                    ],
                  },
                },
              },
            },
          },
          'ap-southeast-1',
        ),
      ),
    );
    const ids = (await lint([broken])).map((f) => f.Rule.Id);
    expect(ids).toContain('E1017');
    // A resource type that exists in one region and not in another (Bedrock: not in China).
    const agent = { Resources: { Agent: { Type: 'AWS::Bedrock::Agent', Properties: { AgentName: 'x' } } } };
    const inRegion = (region: string) => {
      const file = path.join(dir, `agent-${region}.json`);
      writeFileSync(file, JSON.stringify(forRegion(agent, region)));
      return file;
    };
    const findings = await lint([inRegion('us-east-1'), inRegion('cn-northwest-1')]);
    const missingType = findings.filter((f) => f.Rule.Id === 'E3006').map((f) => path.basename(f.Filename));
    expect(missingType).toEqual(['agent-cn-northwest-1.json']);
  }, 120_000);
});
