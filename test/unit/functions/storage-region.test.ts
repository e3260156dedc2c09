import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLANS, ROLES } from '../../../functions/domain/plans';
import type { UserProfile } from '../../../functions/data/users';
import { UNIT_ENV } from '../../helpers/events';
import { jsonResponse, stubHttp, type SentRequest } from '../../helpers/http-stub';

/**
 * The storage region with a deployment that serves hongkong and frankfurt only (UNIT_ENV): where a user's
 * uploads go, what PATCH /settings/region refuses before writing, and the speed-test URLs of
 * GET /regions. The table answers at the fetch boundary (this is about the rules, the integration
 * test has the stack).
 */
let calls: SentRequest[];
let restore: () => void;
const updates = () => calls.filter((c) => c.target === 'UpdateItem');
let uploadRegionFor: typeof import('../../../functions/services/storage-region').uploadRegionFor;
let settings: typeof import('../../../functions/services/settings');

beforeAll(async () => {
  Object.assign(process.env, UNIT_ENV);
  ({ uploadRegionFor } = await import('../../../functions/services/storage-region'));
  settings = await import('../../../functions/services/settings');
});

beforeEach(() => {
  ({ calls, restore } = stubHttp((req) =>
    req.target === 'UpdateItem' ? jsonResponse({}) : jsonResponse({ __type: 'UnexpectedRequest' }, 400),
  ));
});

afterEach(() => restore());

const user = (role: string, region?: UserProfile['region']): UserProfile => ({
  userId: 'u-1',
  email: 'u@example.com',
  role,
  ...(region ? { region } : {}),
});

describe('the plans say who may choose a region', () => {
  it('anon and free use the default; every paid plan and premium may choose', () => {
    expect(ROLES.filter((r) => PLANS[r].regionChoice)).toEqual(ROLES.filter((r) => r !== 'anon' && r !== 'free'));
  });
});

describe('uploadRegionFor', () => {
  it("is the user's choice when the plan allows it and the deployment serves it, else the default", () => {
    expect(uploadRegionFor(user('pro', 'frankfurt'))).toBe('frankfurt');
    expect(uploadRegionFor(user('free', 'frankfurt'))).toBe('hongkong');
    expect(uploadRegionFor(user('pro', 'dubai'))).toBe('hongkong');
    expect(uploadRegionFor(user('pro', 'hangzhou'))).toBe('hongkong');
    expect(uploadRegionFor(user('pro'))).toBe('hongkong');
    expect(uploadRegionFor(undefined)).toBe('hongkong');
    // The deciding plan may be another's (a team admin's): a free member of a business admin may choose.
    expect(uploadRegionFor(user('free', 'frankfurt'), 'business')).toBe('frankfurt');
  });
});

describe('chooseRegion', () => {
  const refused = async (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: { statusCode: number; code: string; details?: { reason?: string } }) =>
        e.details?.reason ? [e.statusCode, e.code, { reason: e.details.reason }] : [e.statusCode, e.code],
    );

  it('refuses, before writing anything, a foreign userid, unknown and not offered regions, one without buckets here, and a plan without the choice', async () => {
    expect(await refused(settings.chooseRegion(user('pro'), 'u-2', 'frankfurt'))).toEqual([403, 'not_your_account']);
    expect(await refused(settings.chooseRegion(user('pro'), 'u-1', 'mars'))).toEqual([400, 'unknown_region']);
    expect(await refused(settings.chooseRegion(user('pro'), 'u-1', 'guangzhou'))).toEqual([
      400,
      'region_unavailable',
      { reason: 'not_offered' },
    ]);
    expect(await refused(settings.chooseRegion(user('pro'), 'u-1', 'dubai'))).toEqual([
      400,
      'region_unavailable',
      { reason: 'not_deployed' },
    ]);
    expect(await refused(settings.chooseRegion(user('free'), 'u-1', 'frankfurt'))).toEqual([
      403,
      'region_choice_not_in_plan',
    ]);
    expect(updates()).toHaveLength(0);
  });

  it('stores an allowed choice on the profile', async () => {
    expect(await settings.chooseRegion(user('personal'), 'u-1', 'frankfurt')).toEqual({ region: 'frankfurt' });
    const [call] = updates();
    expect(call!.json()).toMatchObject({
      TableName: 'unit-table',
      Key: { pk: { S: 'USER#u-1' }, sk: { S: 'PROFILE' } },
      ExpressionAttributeValues: { ':region': { S: 'frankfurt' } },
    });
  });
});

describe('listRegions', () => {
  it('signs a short-lived HEAD of the speed-test object for each offered region served here, and nothing for the others', async () => {
    const { regions, defaultRegion, expiresAt } = await settings.listRegions(1_000);
    expect(defaultRegion).toBe('hongkong');
    expect(expiresAt).toBe(1_000 + 300_000);
    const by = Object.fromEntries(regions.map((r) => [r.regionId, r]));
    expect(by.frankfurt).toMatchObject({ offered: true, available: true });
    const url = new URL(by.frankfurt!.speedTestUrl!);
    expect(url.hostname + url.pathname).toMatch(/fra-transfers.*speedtest\/128kb\.bin$/u);
    expect(url.hostname).toContain('eu-central-1');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/u);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^unit\/\d{8}\/eu-central-1\/s3\/aws4_request$/u);
    expect(by.dubai).toMatchObject({ offered: true, available: false, speedTestUrl: null });
    expect(by.hangzhou).toMatchObject({ offered: false, speedTestUrl: null });
    expect(by.guangzhou).toMatchObject({ offered: false, speedTestUrl: null });
  });
});
