/**
 * Every route of the app: its pattern (read by routes.tsx) and its href builder (used by
 * links). Routes owned by later issues are listed in PLANNED_ROUTES and are not served yet.
 */

export const PRODUCT_SLUGS = [
  'supplier-document-tracking',
  'document-receipts',
  'attachments-organized',
  'dashboard-analytics',
  'business-intelligence',
  'works-everywhere',
] as const;
export type ProductSlug = (typeof PRODUCT_SLUGS)[number];

export const COMPARE_SLUGS = ['wetransfer', 'china'] as const;
export type CompareSlug = (typeof COMPARE_SLUGS)[number];

export function isProductSlug(value: string | undefined): value is ProductSlug {
  return (PRODUCT_SLUGS as readonly (string | undefined)[]).includes(value);
}

export function isCompareSlug(value: string | undefined): value is CompareSlug {
  return (COMPARE_SLUGS as readonly (string | undefined)[]).includes(value);
}

/** Patterns of the served routes. Aliases render the same screen; redirects send elsewhere. */
export const ROUTES = {
  home: { pattern: '/', aliases: ['/index.html'] },
  pricing: { pattern: '/pricing', aliases: ['/signup', '/welcomeback'] },
  about: { pattern: '/about', aliases: [] },
  updates: { pattern: '/updates', aliases: [] },
  roadmap: { pattern: '/roadmap/*', aliases: [] },
  support: { pattern: '/support/*', aliases: [] },
  affiliate: { pattern: '/affiliate-program', aliases: [] },
  sumo: { pattern: '/appsumoforever', aliases: [] },
  thankyou: { pattern: '/thankyou', aliases: ['/accept-invite'] },
  thankyou2: { pattern: '/thankyou2', aliases: [] },
  product: { pattern: '/product/:slug', aliases: [] },
  compare: { pattern: '/compare/:slug', aliases: [] },
  /** {user} is the recipient id of an emailed link; a last segment 'downloadZip' starts the ZIP */
  downloads: { pattern: '/downloads/:id/:user?/:downloadZip?', aliases: ['/d/:id/:user?'] },
  /** the public link {origin}/w/{slug}: the same download page */
  publicLink: { pattern: '/w/:slug', aliases: [] },
  /** the public file request page: a visitor uploads files to the requester */
  fileRequest: { pattern: '/r/:id', aliases: [] },
  /** the sender's approve link from an extension request mail */
  extension: { pattern: '/extension/:id', aliases: [] },
  /** query: user (prefill email), redirect (same-origin path to open after login), forgotPass */
  login: { pattern: '/login', aliases: ['/signup/login'] },
  /** query: step 1 email, 2 code, 3 account details; plan: the plan chosen on Pricing */
  register: { pattern: '/register', aliases: [] },
  /** query t: the reset token from the mail, checked before the form is enabled */
  updatePassword: { pattern: '/updatepassword', aliases: [] },
  /** the mailed team invite link; the invitee sets name and password, then /accept-invite */
  invite: { pattern: '/invite/:id', aliases: [] },
  /** the public API's reference, rendered from GET /api/v1/openapi.json */
  developers: { pattern: '/developers', aliases: [] },
  /** checks a signed delivery receipt in the browser (public) */
  verify: { pattern: '/verify', aliases: [] },
  /** login needed (guard in routes.tsx); child screens come from app/dash-routes */
  dash: { pattern: '/dash', aliases: [] },
  notFound: { pattern: '/404', aliases: [] },
} as const satisfies Record<string, { pattern: string; aliases: readonly string[] }>;

export type RouteId = keyof typeof ROUTES;

/** Old marketing addresses that now live under /compare (spec §2: "redirect to comparison pages"). */
export const COMPARE_REDIRECTS = [
  { from: '/sinosend-vs-wetransfer', to: 'wetransfer' },
  { from: '/how-to-send-big-files-to-china', to: 'china' },
] as const satisfies readonly { from: string; to: CompareSlug }[];

export interface PlannedRoute {
  readonly pattern: string;
  readonly aliases: readonly string[];
  /** the issue that builds the screen; until then the path falls through to /404/ */
  readonly issue: 'Accounts' | 'Dashboard' | 'Send and download' | 'File requests';
  readonly note: string;
}

/** Routes of spec §2 that later issues build. The router does not serve them yet. */
export const PLANNED_ROUTES = [] as const satisfies readonly PlannedRoute[];

/** The download page's last path segment that asks for the ZIP of all files (spec §2). */
export const DOWNLOAD_ZIP_SEGMENT = 'downloadZip';

function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const paths = {
  home: () => '/',
  /** plan: preselected plan id (spec uses plan=free); save: show yearly prices */
  pricing: (query: { plan?: string; save?: boolean } = {}) =>
    withQuery('/pricing', { plan: query.plan, save: query.save ? '1' : undefined }),
  about: () => '/about',
  updates: () => '/updates',
  roadmap: (itemId?: string) => (itemId ? `/roadmap/${encodeURIComponent(itemId)}` : '/roadmap'),
  support: (query: { article?: string } = {}) => withQuery('/support', { article: query.article }),
  affiliate: () => '/affiliate-program/',
  sumo: () => '/appsumoforever',
  thankyou: () => '/thankyou',
  thankyou2: () => '/thankyou2',
  product: (slug: ProductSlug) => `/product/${slug}`,
  compare: (slug: CompareSlug) => `/compare/${slug}`,
  /** recipient: the recipient id of an emailed link; downloadZip: start the ZIP of all files on arrival */
  downloads: (id: string, options: { recipient?: string; downloadZip?: boolean } = {}) => {
    let path = `/downloads/${encodeURIComponent(id)}`;
    if (options.recipient) path += `/${encodeURIComponent(options.recipient)}`;
    if (options.downloadZip) path += `/${DOWNLOAD_ZIP_SEGMENT}`;
    return path;
  },
  publicLink: (slug: string) => `/w/${encodeURIComponent(slug)}`,
  extension: (token: string) => `/extension/${encodeURIComponent(token)}`,
  fileRequest: (id: string) => `/r/${encodeURIComponent(id)}`,
  /** originalPath: the address that was not found (path + search), shown on the page */
  notFound: (originalPath?: string) => withQuery('/404/', { path: originalPath }),
  /** user: email to prefill; redirect: path (+query) to open after login; forgotPass: start in forgot-password mode */
  login: (query: { user?: string; redirect?: string; forgotPass?: boolean } = {}) =>
    withQuery('/login', { user: query.user, redirect: query.redirect, forgotPass: query.forgotPass ? '1' : undefined }),
  /** period (month / year) and coupon: the paid plan's price and a coupon for its checkout at step 3 */
  register: (query: { step?: 1 | 2 | 3; plan?: string; period?: string; coupon?: string } = {}) =>
    withQuery('/register', {
      step: query.step === undefined ? undefined : String(query.step),
      plan: query.plan,
      period: query.period,
      coupon: query.coupon,
    }),
  updatePassword: (token: string) => withQuery('/updatepassword', { t: token }),
  dash: () => '/dash',
  /** the account (spec §2 named route `account`, parameter tab; tab 1 is plan upgrade with plan and period preselected) */
  account: (query: { tab?: 0 | 1; plan?: string; period?: string; coupon?: string } = {}) =>
    withQuery('/dash/account', {
      tab: query.tab ? String(query.tab) : undefined,
      plan: query.plan,
      period: query.period,
      coupon: query.coupon,
    }),
  /** Dashboard screens the top navigation's account menu opens (spec §2 named routes). */
  accountProfile: () => '/dash/account/profile',
  domainSettings: () => '/dash/account/domain',
  /** the admin's Teams screen (the former /dash/teams redirects here) */
  teams: () => '/dash/account/teams',
  /** the mailed invite link, and where accepting lands (spec §2: alias of /thankyou) */
  invite: (token: string) => `/invite/${encodeURIComponent(token)}`,
  acceptInvite: () => '/accept-invite',
  /** the billing page (the former /dash/billing redirects here) */
  accountBilling: () => '/dash/account/billing',
  /** the simulator's hosted invoice page: a printable invoice */
  accountInvoice: (id: string) => `/dash/account/billing/invoices/${encodeURIComponent(id)}`,
  /** branding (spec §2 /dash/account/customize; the former /dash/customize redirects here) */
  accountCustomize: () => '/dash/account/customize',
  /** the 'Powered by' line (spec §2 /dash/account/powered-by) */
  accountPoweredBy: () => '/dash/account/powered-by',
  /** webhook endpoints, their secrets and delivery logs */
  accountWebhooks: () => '/dash/account/webhooks',
  /** the user's API keys (team members only when their admin allows keys) */
  apiKeys: () => '/dash/account/api-keys',
  /** the public API's reference */
  developers: () => '/developers',
  /** checking a signed delivery receipt */
  verify: () => '/verify',
} as const;
