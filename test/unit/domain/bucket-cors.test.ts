import type { CORSRule } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import {
  APP_ORIGINS_RULE_ID,
  CUSTOM_DOMAINS_RULE_ID,
  appCorsXml,
  corsRule,
  customOriginsOf,
  planCustomOrigins,
} from '../../../functions/domain/bucket-cors';

const APP: CORSRule[] = [corsRule(APP_ORIGINS_RULE_ID, ['https://app.example'])];
const rulesOf = (plan: ReturnType<typeof planCustomOrigins>) => {
  if (plan.action !== 'put') throw new Error(`expected a put, got ${plan.action}`);
  return plan.rules;
};

describe('bucket CORS: the custom-domains rule', () => {
  it('adds a rule of its own beside the app rule, which it keeps as it was', () => {
    const rules = rulesOf(planCustomOrigins(APP, ['https://files.b.test', 'https://files.a.test']));
    expect(rules.map((r) => ({ id: r.ID, origins: r.AllowedOrigins }))).toEqual([
      { id: APP_ORIGINS_RULE_ID, origins: ['https://app.example'] },
      { id: CUSTOM_DOMAINS_RULE_ID, origins: ['https://files.a.test', 'https://files.b.test'] },
    ]);
    expect(rules[0]).toBe(APP[0]);
    expect(rules[1]!.AllowedMethods).toContain('PUT');
  });

  it('writes nothing when the rule already allows exactly those origins, in any order', () => {
    const current = [...APP, corsRule(CUSTOM_DOMAINS_RULE_ID, ['https://x.test', 'https://y.test'])];
    expect(planCustomOrigins(current, ['https://y.test', 'https://x.test', 'https://x.test'])).toEqual({
      action: 'none',
    });
    expect(planCustomOrigins(APP, [])).toEqual({ action: 'none' });
    expect(planCustomOrigins(undefined, [])).toEqual({ action: 'none' });
  });

  it('replaces the rule when hosts come and go, and drops it when none is left', () => {
    const current = [...APP, corsRule(CUSTOM_DOMAINS_RULE_ID, ['https://old.test'])];
    expect(rulesOf(planCustomOrigins(current, ['https://new.test'])).map((r) => r.AllowedOrigins)).toEqual([
      ['https://app.example'],
      ['https://new.test'],
    ]);
    expect(rulesOf(planCustomOrigins(current, []))).toEqual(APP);
    // The custom rule alone (someone removed the app rule): S3 takes no empty configuration.
    expect(planCustomOrigins([corsRule(CUSTOM_DOMAINS_RULE_ID, ['https://old.test'])], [])).toEqual({
      action: 'delete',
    });
  });

  it('keeps every other rule as S3 answered it, with or without an ID', () => {
    const other: CORSRule = { AllowedMethods: ['GET'], AllowedOrigins: ['*'] };
    const current = [
      other,
      {
        ID: CUSTOM_DOMAINS_RULE_ID,
        AllowedOrigins: ['https://b&c.test', 'http://a.test:5173'],
        AllowedMethods: ['PUT'],
      },
    ];
    expect(customOriginsOf(current)).toEqual(['http://a.test:5173', 'https://b&c.test']);
    const kept = rulesOf(planCustomOrigins(current, ['http://a.test:5173']));
    expect(kept[0]).toBe(other);
    expect(customOriginsOf(kept)).toEqual(['http://a.test:5173']);
  });

  it("writes the emulator's start-up configuration as XML, escaped", () => {
    const xml = appCorsXml(['https://app.example', 'http://a&b.test']);
    expect(xml).toMatch(
      /^<CORSConfiguration xmlns="http:\/\/s3\.amazonaws\.com\/doc\/2006-03-01\/"><CORSRule><ID>app-origins<\/ID>/u,
    );
    expect(xml).toContain(
      '<AllowedOrigin>https://app.example</AllowedOrigin><AllowedOrigin>http://a&amp;b.test</AllowedOrigin>',
    );
    expect(xml).toContain('<AllowedMethod>PUT</AllowedMethod>');
    expect(xml).toContain('<ExposeHeader>ETag</ExposeHeader>');
  });
});
