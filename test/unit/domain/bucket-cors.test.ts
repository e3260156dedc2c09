import { describe, expect, it } from 'vitest';
import {
  APP_ORIGINS_RULE_ID,
  CUSTOM_DOMAINS_RULE_ID,
  appCorsXml,
  corsConfigurationXml,
  corsRuleXml,
  customOriginsOf,
  planCustomOrigins,
} from '../../../functions/domain/bucket-cors';
import { xmlBlocks, xmlText } from '../../../functions/lib/aws/xml';

const APP = appCorsXml(['https://app.example']);
const rulesOf = (xml: string) => xmlBlocks(xml, 'CORSRule').map((r) => ({ id: xmlText(r, 'ID'), origins: xmlBlocks(r, 'AllowedOrigin') }));

describe('bucket CORS: the custom-domains rule', () => {
  it('adds a rule of its own beside the app rule, which it keeps as it was', () => {
    const plan = planCustomOrigins(APP, ['https://files.b.test', 'https://files.a.test']);
    expect(plan.action).toBe('put');
    const xml = (plan as { xml: string }).xml;
    expect(rulesOf(xml)).toEqual([
      { id: APP_ORIGINS_RULE_ID, origins: ['https://app.example'] },
      { id: CUSTOM_DOMAINS_RULE_ID, origins: ['https://files.a.test', 'https://files.b.test'] },
    ]);
    expect(xml).toContain(xmlBlocks(APP, 'CORSRule')[0]);
    expect(xmlBlocks(xml, 'CORSRule')[1]).toContain('<AllowedMethod>PUT</AllowedMethod>');
  });

  it('writes nothing when the rule already allows exactly those origins, in any order', () => {
    const current = corsConfigurationXml([xmlBlocks(APP, 'CORSRule').map((r) => `<CORSRule>${r}</CORSRule>`)[0]!, corsRuleXml(CUSTOM_DOMAINS_RULE_ID, ['https://x.test', 'https://y.test'])]);
    expect(planCustomOrigins(current, ['https://y.test', 'https://x.test', 'https://x.test'])).toEqual({ action: 'none' });
    expect(planCustomOrigins(APP, [])).toEqual({ action: 'none' });
    expect(planCustomOrigins(undefined, [])).toEqual({ action: 'none' });
  });

  it('replaces the rule when hosts come and go, and drops it when none is left', () => {
    const current = corsConfigurationXml([`<CORSRule>${xmlBlocks(APP, 'CORSRule')[0]}</CORSRule>`, corsRuleXml(CUSTOM_DOMAINS_RULE_ID, ['https://old.test'])]);
    const swapped = planCustomOrigins(current, ['https://new.test']) as { action: 'put'; xml: string };
    expect(rulesOf(swapped.xml).map((r) => r.origins)).toEqual([['https://app.example'], ['https://new.test']]);
    const none = planCustomOrigins(current, []) as { action: 'put'; xml: string };
    expect(rulesOf(none.xml)).toEqual([{ id: APP_ORIGINS_RULE_ID, origins: ['https://app.example'] }]);
    // The custom rule alone (someone removed the app rule): S3 takes no empty configuration.
    expect(planCustomOrigins(corsConfigurationXml([corsRuleXml(CUSTOM_DOMAINS_RULE_ID, ['https://old.test'])]), [])).toEqual({ action: 'delete' });
  });

  it('reads the origins back as S3 answers them (any other rules, namespaces and entities)', () => {
    const answer = `<?xml version="1.0" encoding="UTF-8"?><CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*</AllowedOrigin></CORSRule><CORSRule><ID>custom-domains</ID><AllowedOrigin>http://a.test:5173</AllowedOrigin><AllowedOrigin>https://b&amp;c.test</AllowedOrigin><AllowedMethod>PUT</AllowedMethod></CORSRule></CORSConfiguration>`;
    expect(customOriginsOf(answer)).toEqual(['http://a.test:5173', 'https://b&c.test']);
    const kept = planCustomOrigins(answer, ['http://a.test:5173']) as { action: 'put'; xml: string };
    expect(kept.xml).toContain('<CORSRule><AllowedMethod>GET</AllowedMethod><AllowedOrigin>*</AllowedOrigin></CORSRule>');
    expect(customOriginsOf(kept.xml)).toEqual(['http://a.test:5173']);
  });
});
