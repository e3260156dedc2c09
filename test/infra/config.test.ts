import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { REGION_IDS, STORAGE_REGIONS } from '../../functions/domain/regions';
import { DEFAULT_MAIL_FROM, readAppConfig } from '../../lib/app-config';
import { REGION_CONFIG, parseRegionList } from '../../lib/region-config';

// Payments have no default (a test of its own refuses a synth without); the rest is read as given.
const config = (context: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  readAppConfig(new App({ context: { payments: 'simulated', ...context } }), env);

describe('region config', () => {
  it('maps every storage region of the product to an AWS region', () => {
    expect(Object.keys(REGION_CONFIG).sort()).toEqual([...REGION_IDS].sort());
    for (const r of STORAGE_REGIONS) {
      // The offered regions are in the global partition; Hangzhou and Guangzhou are not.
      expect(REGION_CONFIG[r.regionId].partition).toBe(r.offered ? 'aws' : 'aws-cn');
    }
  });

  it('rejects unknown and repeated region ids', () => {
    expect(() => parseRegionList('hongkong,paris')).toThrow(/unknown storage region 'paris'/);
    expect(() => parseRegionList('hongkong, hongkong')).toThrow(/listed twice/);
    expect(parseRegionList(' hongkong , frankfurt ')).toEqual(['hongkong', 'frankfurt']);
  });
});

describe('readAppConfig', () => {
  it('defaults to hongkong with its home region and an environment-agnostic account offline', () => {
    expect(config({})).toMatchObject({
      regions: ['hongkong'],
      chinaRegions: [],
      homeRegion: 'ap-southeast-1',
      account: undefined,
      appOrigins: [],
      appOriginsConfigured: false,
      mailFrom: DEFAULT_MAIL_FROM,
      mailFromConfigured: false,
    });
  });

  it('takes the account from -c account, else from the CDK CLI environment', () => {
    expect(config({}, { CDK_DEFAULT_ACCOUNT: '123456789012' }).account).toBe('123456789012');
    expect(config({ account: '210987654321' }, { CDK_DEFAULT_ACCOUNT: '123456789012' }).account).toBe('210987654321');
    expect(() => config({ account: 'prod' })).toThrow(/12-digit/);
  });

  it('uses the custom domain as app origin unless origins are given', () => {
    const cert = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
    expect(config({ domainName: 'send.example.com', certificateArn: cert }).appOrigins).toEqual([
      'https://send.example.com',
    ]);
    expect(
      config({ domainName: 'send.example.com', certificateArn: cert, appOrigins: 'https://a.example.com' }).appOrigins,
    ).toEqual(['https://a.example.com']);
  });

  it('refuses inconsistent settings', () => {
    expect(() => config({ regions: 'hangzhou' })).toThrow(/no global-partition region/);
    expect(() => config({ regions: 'hongkong,guangzhou' })).toThrow(/chinaAccount/);
    expect(() => config({ domainName: 'send.example.com' })).toThrow(/go together/);
    expect(() =>
      config({
        domainName: 'send.example.com',
        certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc',
      }),
    ).toThrow(/us-east-1/);
    expect(() => config({ appOrigins: 'http://send.example.com' })).toThrow(/https origin/);
    expect(() => config({ appOrigins: 'https://send.example.com/app' })).toThrow(/https origin/);
    expect(() => config({ homeRegion: 'cn-north-1' })).toThrow(/global-partition/);
  });
});
