import { describe, it, expect } from 'vitest';
import {
  COMPARISON_FREE_EXPIRY_DAYS,
  COMPARISON_FREE_RECIPIENTS,
  COMPARISON_FREE_STORAGE_BYTES,
  COMPARISON_FREE_TRANSFER_BYTES,
  FREE_MARKETING_FILE_SIZE_BYTES,
  FREE_MARKETING_STORAGE_BYTES,
  PLANS,
  PREMIUM_PACKAGE,
  ROLES,
  TRIAL_DAYS,
  REFUND_DAYS,
  isPaidRole,
  limitsFor,
  resolveRole,
  type Role,
} from '../../../functions/domain/plans';
import { roleSchema } from '../../../functions/domain/validation';

const GB = 1e9;
const TB = 1e12;

// [role, monthly, yearly, upload, storage, recipients, files, team] exactly as spec §9 gives them;
// null where the spec says "not shown".
const SPEC_TABLE: [
  Role,
  number | null,
  number | null,
  number | null,
  number | null,
  number,
  number | null,
  number | null,
][] = [
  ['anon', null, null, 3 * GB, 5 * GB, 6, 50, null],
  ['free', 0, 0, 3 * GB, 10 * GB, 6, 50, null],
  ['personal', 12, 108, 10 * GB, 50 * GB, 21, 50, 1],
  ['pro', 29, 228, 25 * GB, 200 * GB, 50, 250, 2],
  ['business', 69, 588, 100 * GB, 1 * TB, 100, 1500, 5],
  ['businessplus', null, null, null, null, 150, null, 10],
  ['businesselite', null, null, 150 * GB, 1.5 * TB, 200, null, 20],
  ['team', null, null, 200 * GB, 2 * TB, 250, null, 25],
  ['teamplus', null, null, 2.5 * TB, 2.5 * TB, 300, null, 30],
  ['teamelite', null, null, null, 3 * TB, 300, null, 50],
];

const TABLE_ROLES = SPEC_TABLE.map((r) => r[0]);

describe('plan table', () => {
  it('has every spec role plus premium, and nothing else', () => {
    expect([...ROLES].sort()).toEqual([...TABLE_ROLES, 'premium'].sort());
  });

  it.each(SPEC_TABLE)(
    '%s carries the spec values where the spec gives them',
    (role, monthly, yearly, upload, storage, recipients, files, team) => {
      const plan = PLANS[role];
      expect(plan.role).toBe(role);
      if (monthly !== null) expect(plan.price).toEqual({ monthly, yearly });
      if (upload !== null) expect(plan.uploadLimit).toBe(upload);
      if (storage !== null) expect(plan.storage).toBe(storage);
      expect(plan.emailTo).toBe(recipients);
      if (files !== null) expect(plan.files).toBe(files);
      if (team !== null) expect(plan.teamLimit).toBe(team);
    },
  );

  it.each(SPEC_TABLE)(
    '%s marks exactly the limits the spec leaves out as inferred',
    (role, _m, _y, upload, storage, _r, files, team) => {
      const expected = [
        upload === null && 'uploadLimit',
        storage === null && 'storage',
        files === null && 'files',
        team === null && 'teamLimit',
      ].filter(Boolean);
      const limitFields = PLANS[role].inferred.filter((f) => f !== 'price' && f !== 'monthlyTransfers');
      expect([...limitFields].sort()).toEqual([...expected].sort());
    },
  );

  it('leaves unpublished prices null rather than inventing them', () => {
    for (const [role, monthly] of SPEC_TABLE) {
      if (monthly === null) expect(PLANS[role].price).toBeNull();
    }
  });

  it('fills inferred limits so that no plan offers less than the plan below it', () => {
    const order = TABLE_ROLES.slice(1);
    for (let i = 1; i < order.length; i += 1) {
      const lower = PLANS[order[i - 1]!];
      const higher = PLANS[order[i]!];
      for (const field of ['uploadLimit', 'storage', 'emailTo', 'files', 'teamLimit'] as const) {
        expect(higher[field], `${higher.role}.${field}`).toBeGreaterThanOrEqual(lower[field]);
      }
    }
  });

  it('never lets one transfer exceed the plan storage', () => {
    for (const role of ROLES) expect(PLANS[role].uploadLimit).toBeLessThanOrEqual(PLANS[role].storage);
  });

  it('uses decimal units: 1 GB is 1e9 bytes and 1 TB is 1e12 bytes', () => {
    expect(PLANS.free.uploadLimit).toBe(3_000_000_000);
    expect(PLANS.business.storage).toBe(1_000_000_000_000);
  });

  it('gives the email domain feature to business and every plan above it only', () => {
    const withDomain = ROLES.filter((r) => PLANS[r].emailDomain);
    expect(withDomain.sort()).toEqual(['business', 'businesselite', 'businessplus', 'team', 'teamelite', 'teamplus']);
  });

  it('limits free to 10 transfers a month and leaves paid plans unlimited', () => {
    expect(PLANS.free.monthlyTransfers).toBe(10);
    for (const role of ['personal', 'pro', 'business', 'teamelite', 'premium'] as const) {
      expect(PLANS[role].monthlyTransfers).toBeNull();
    }
  });

  it('makes premium the PRM 7-day trial package with the 50 recipients its upsell promises', () => {
    expect(PREMIUM_PACKAGE).toBe('PRM');
    expect(PLANS.premium.packageCode).toBe('PRM');
    expect(PLANS.premium.trialDays).toBe(7);
    expect(PLANS.premium.emailTo).toBe(50);
    expect(PLANS.premium.inferred).toContain('emailTo');
  });

  it('gives paid plans a 7-day trial and a 30-day refund window, and free none', () => {
    expect(TRIAL_DAYS).toBe(7);
    expect(REFUND_DAYS).toBe(30);
    expect(PLANS.personal.trialDays).toBe(7);
    expect(PLANS.free.trialDays).toBe(0);
  });

  it('keeps the free-plan marketing reading beside the enforced one', () => {
    expect(FREE_MARKETING_STORAGE_BYTES).toBe(20 * GB);
    expect(FREE_MARKETING_FILE_SIZE_BYTES).toBe(5 * GB);
    expect(PLANS.free.storage).toBe(10 * GB);
    expect(PLANS.free.uploadLimit).toBe(3 * GB);
  });

  it('keeps the comparison-table claims as their own constants', () => {
    expect(COMPARISON_FREE_STORAGE_BYTES).toBe(10 * GB);
    expect(COMPARISON_FREE_TRANSFER_BYTES).toBe(5 * GB);
    expect(COMPARISON_FREE_EXPIRY_DAYS).toBe(14);
    expect(COMPARISON_FREE_RECIPIENTS).toBe(20);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(PLANS.free)).toBe(true);
  });
});

describe('limitsFor', () => {
  it('returns the plan of a known role', () => {
    expect(limitsFor('pro')).toBe(PLANS.pro);
  });

  it.each(['gold', '', 'FREE', null, undefined])('falls back to the free limits for unknown role %j', (role) => {
    expect(limitsFor(role)).toBe(PLANS.free);
  });
});

describe('roles', () => {
  it('treats every role but anon and free as paid', () => {
    expect(ROLES.filter(isPaidRole).sort()).toEqual(ROLES.filter((r) => r !== 'anon' && r !== 'free').sort());
    expect(isPaidRole('gold')).toBe(false);
  });

  it('parses only known roles', () => {
    expect(roleSchema.safeParse('teamelite').success).toBe(true);
    expect(roleSchema.safeParse('admin').success).toBe(false);
  });

  it('takes the role from plan metadata, then customer metadata, then free', () => {
    expect(resolveRole({ planRole: 'pro', customerRole: 'business' })).toBe('pro');
    expect(resolveRole({ planRole: 'bogus', customerRole: 'business' })).toBe('business');
    expect(resolveRole({ planRole: null, customerRole: undefined })).toBe('free');
  });
});
