import { describe, expect, it } from 'vitest';
import { synthSendBridge, type TestApp } from './synth';

const VERSION = '8f14e45f-ceea-467f-a0e6-3f1a2b4c5d6e';

/** What CloudFront sends as x-origin-verify, and what every function expects, as template JSON. */
function originVerifyUses(t: TestApp): { header: string[]; env: string[] } {
  const web = t.template(t.web).toJSON() as { Resources: Record<string, { Type: string; Properties: any }> };
  const core = t.template(t.core).toJSON() as { Resources: Record<string, { Type: string; Properties: any }> };
  const header = Object.values(web.Resources)
    .filter((r) => r.Type === 'AWS::CloudFront::Distribution')
    .flatMap(
      (r) =>
        r.Properties.DistributionConfig.Origins as {
          OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
        }[],
    )
    .flatMap((o) => o.OriginCustomHeaders ?? [])
    .filter((h) => h.HeaderName === 'x-origin-verify')
    .map((h) => JSON.stringify(h.HeaderValue));
  const env = Object.values(core.Resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function')
    .map((r) => r.Properties.Environment?.Variables?.ORIGIN_VERIFY)
    .filter((v) => v !== undefined)
    .map((v) => JSON.stringify(v));
  return { header, env };
}

describe('rotating the origin-verify secret', () => {
  const before = originVerifyUses(synthSendBridge());
  const after = originVerifyUses(synthSendBridge({ originVerifyVersion: VERSION }));

  it("without a version, CloudFront and the functions resolve the secret's current value", () => {
    expect(before.header.length).toBe(2);
    expect(before.env.length).toBeGreaterThan(10);
    for (const v of [...before.header, ...before.env]) {
      expect(v).toContain('{{resolve:secretsmanager:');
      expect(v).not.toContain(VERSION);
    }
  });

  it('naming the new version changes what both sides resolve, so the deploy is not "no changes"', () => {
    expect(after.header.length).toBe(before.header.length);
    expect(after.env.length).toBe(before.env.length);
    for (const v of [...after.header, ...after.env])
      expect(v).toMatch(new RegExp(`\\{\\{resolve:secretsmanager:.*:SecretString:::${VERSION}\\}\\}`, 'u'));
    expect(after.header).not.toEqual(before.header);
    expect(after.env).not.toEqual(before.env);
  });

  it('refuses a version that is not a Secrets Manager VersionId', () => {
    expect(() => synthSendBridge({ originVerifyVersion: 'AWSCURRENT' })).toThrow(/originVerifyVersion/u);
  });
});
