/**
 * Plan table of spec §9 (sizes in decimal units, see units.ts). Values the spec leaves
 * "not shown" are filled with a choice consistent with the neighbouring plans and listed in
 * the plan's `inferred` so the app and docs can say they are ours, not the product's.
 * Plain data without zod (home's plan cards and the send form read it on the first load);
 * the role schema is in validation.ts.
 */
import { GB, TB } from './units';

/**
 * The plan ladder in rank order, personal to teamelite: lifetime codes climb it one step a code,
 * and the plan features "from X up" are slices of it (premium stands beside it, at pro's rank).
 */
export const LADDER_ROLES = [
  'personal',
  'pro',
  'business',
  'businessplus',
  'businesselite',
  'team',
  'teamplus',
  'teamelite',
] as const;

export type LadderRole = (typeof LADDER_ROLES)[number];

export const ROLES = ['anon', 'free', ...LADDER_ROLES, 'premium'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Roles a subscription pays for; anon and free never have one. */
export const PAID_ROLES: readonly Role[] = ROLES.filter((r) => r !== 'anon' && r !== 'free');

export function isPaidRole(role: string | null | undefined): boolean {
  return isRole(role) && PAID_ROLES.includes(role);
}

export const DEFAULT_ROLE: Role = 'free';

/** The ladder from `role` up, with premium: the roles of a feature sold "from this plan up". */
export function rolesFrom(role: LadderRole): readonly Role[] {
  return [...LADDER_ROLES.slice(LADDER_ROLES.indexOf(role)), 'premium'];
}

/** The 7-day trial package a guest is sent to from the done view and the link-mode upsell. */
export const PREMIUM_PACKAGE = 'PRM';

export const TRIAL_DAYS = 7;
export const REFUND_DAYS = 30;
export const FREE_MONTHLY_TRANSFERS = 10;

export type InferableField =
  | 'price'
  | 'uploadLimit'
  | 'storage'
  | 'files'
  | 'teamLimit'
  | 'emailTo'
  | 'monthlyTransfers';

export interface PlanLimits {
  readonly role: Role;
  readonly displayName: string;
  /** Package code where the product names one (premium is 'PRM'). */
  readonly packageCode: string | null;
  /** Monthly and yearly price in the pricing page's currency; null when not sold or not published. */
  readonly price: { readonly monthly: number; readonly yearly: number } | null;
  /** Bytes per transfer, existing files included. */
  readonly uploadLimit: number;
  /** Bytes of storage across all live transfers. */
  readonly storage: number;
  /** Recipients per email send. */
  readonly emailTo: number;
  /** Files per transfer. */
  readonly files: number;
  /** Team members the admin may add. */
  readonly teamLimit: number;
  /** Custom sender email domain (spec §6: business and above). */
  readonly emailDomain: boolean;
  /** Transfers per calendar month; null means unlimited. */
  readonly monthlyTransfers: number | null;
  /**
   * The user may pick the storage region of new transfers and request uploads on
   * /dash/data-residency. Without it (anon, free) files go to the default region, hongkong.
   */
  readonly regionChoice: boolean;
  readonly trialDays: number;
  readonly inferred: readonly InferableField[];
}

type PlanRow = Omit<PlanLimits, 'role' | 'packageCode' | 'trialDays' | 'regionChoice'> &
  Partial<Pick<PlanLimits, 'packageCode' | 'trialDays'>>;

// Pro is also the premium package's base (below).
const PRO: PlanRow = {
  displayName: 'Pro',
  price: { monthly: 29, yearly: 228 },
  uploadLimit: 25 * GB,
  storage: 200 * GB,
  emailTo: 50,
  files: 250,
  teamLimit: 2,
  emailDomain: false,
  monthlyTransfers: null,
  inferred: [],
};

const ROWS: Record<Role, PlanRow> = {
  // Anonymous senders: no team, no price. Counting their monthly sends by verified sender
  // email like free keeps a guest from escaping the free cap by not signing up.
  anon: {
    displayName: 'Anonymous',
    price: null,
    uploadLimit: 3 * GB,
    storage: 5 * GB,
    emailTo: 6,
    files: 50,
    teamLimit: 0,
    emailDomain: false,
    monthlyTransfers: FREE_MONTHLY_TRANSFERS,
    inferred: ['teamLimit', 'monthlyTransfers'],
    trialDays: 0,
  },
  free: {
    displayName: 'Free',
    price: { monthly: 0, yearly: 0 },
    uploadLimit: 3 * GB,
    storage: 10 * GB,
    emailTo: 6,
    files: 50,
    teamLimit: 0,
    emailDomain: false,
    monthlyTransfers: FREE_MONTHLY_TRANSFERS,
    inferred: ['teamLimit'],
    trialDays: 0,
  },
  personal: {
    displayName: 'Personal',
    price: { monthly: 12, yearly: 108 },
    uploadLimit: 10 * GB,
    storage: 50 * GB,
    emailTo: 21,
    files: 50,
    teamLimit: 1,
    emailDomain: false,
    monthlyTransfers: null,
    inferred: [],
  },
  pro: PRO,
  business: {
    displayName: 'Business',
    price: { monthly: 69, yearly: 588 },
    uploadLimit: 100 * GB,
    storage: 1 * TB,
    emailTo: 100,
    files: 1500,
    teamLimit: 5,
    emailDomain: true,
    monthlyTransfers: null,
    inferred: [],
  },
  // Between business and businesselite on every axis the spec leaves out.
  businessplus: {
    displayName: 'Business Plus',
    price: null,
    uploadLimit: 125 * GB,
    storage: 1.25 * TB,
    emailTo: 150,
    files: 2000,
    teamLimit: 10,
    emailDomain: true,
    monthlyTransfers: null,
    inferred: ['uploadLimit', 'storage', 'files'],
  },
  businesselite: {
    displayName: 'Business Elite',
    price: null,
    uploadLimit: 150 * GB,
    storage: 1.5 * TB,
    emailTo: 200,
    files: 2500,
    teamLimit: 20,
    emailDomain: true,
    monthlyTransfers: null,
    inferred: ['files'],
  },
  team: {
    displayName: 'Team',
    price: null,
    uploadLimit: 200 * GB,
    storage: 2 * TB,
    emailTo: 250,
    files: 3000,
    teamLimit: 25,
    emailDomain: true,
    monthlyTransfers: null,
    inferred: ['files'],
  },
  teamplus: {
    displayName: 'Team Plus',
    price: null,
    uploadLimit: 2.5 * TB,
    storage: 2.5 * TB,
    emailTo: 300,
    files: 4000,
    teamLimit: 30,
    emailDomain: true,
    monthlyTransfers: null,
    inferred: ['files'],
  },
  // teamplus already lets one transfer fill its whole storage; teamelite does the same.
  teamelite: {
    displayName: 'Team Elite',
    price: null,
    uploadLimit: 3 * TB,
    storage: 3 * TB,
    emailTo: 300,
    files: 5000,
    teamLimit: 50,
    emailDomain: true,
    monthlyTransfers: null,
    inferred: ['uploadLimit', 'files'],
  },
  // Premium (package PRM) is the 7-day trial package a guest is offered. Its upsell promises
  // "up to 50 people with a subscription", which is pro's recipient count, so premium carries
  // pro's limits and price; none of it is in the plan table.
  premium: {
    ...PRO,
    displayName: 'Premium',
    packageCode: PREMIUM_PACKAGE,
    inferred: ['price', 'uploadLimit', 'storage', 'emailTo', 'files', 'teamLimit'],
  },
};

export const PLANS: Readonly<Record<Role, PlanLimits>> = Object.fromEntries(
  ROLES.map((role) => {
    const row = ROWS[role];
    const plan: PlanLimits = {
      role,
      packageCode: null,
      trialDays: TRIAL_DAYS,
      // Every paid plan (premium's trial too) picks its storage region; anon and free use the default.
      regionChoice: PAID_ROLES.includes(role),
      ...row,
    };
    return [role, Object.freeze(plan)];
  }),
) as Record<Role, PlanLimits>;

/** Spec §6: an unknown role falls back to a default limit set; we use free's, the safest paid-nothing set. */
export function limitsFor(role: string | null | undefined): PlanLimits {
  return isRole(role) ? PLANS[role] : PLANS[DEFAULT_ROLE];
}

/** Spec §6: role comes from the subscription plan's metadata, else the customer's, else free. */
export function resolveRole(source: { planRole?: string | null; customerRole?: string | null }): Role {
  if (isRole(source.planRole)) return source.planRole;
  if (isRole(source.customerRole)) return source.customerRole;
  return DEFAULT_ROLE;
}

// Free-plan marketing reading (spec §1, §9). The enforced values are PLANS.free.
export const FREE_MARKETING_STORAGE_BYTES = 20 * GB;
export const FREE_MARKETING_FILE_SIZE_BYTES = 5 * GB;

// Claims of the comparison table against competitors (spec §1), shown only on that table.
export const COMPARISON_FREE_STORAGE_BYTES = 10 * GB;
export const COMPARISON_FREE_TRANSFER_BYTES = 5 * GB;
export const COMPARISON_FREE_EXPIRY_DAYS = 14;
export const COMPARISON_FREE_RECIPIENTS = 20;
