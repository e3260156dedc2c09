import { generatePath, replace, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { COMPARE_REDIRECTS, PLANNED_ROUTES, ROUTES, paths, type RouteId } from '@/app/paths';
import { Layout } from '@/components/layout';
import { PageLoading } from '@/components/page-loading';
import { RouteError } from '@/components/route-error';
import { dashRoutes } from '@/app/dash-routes';
import { roadmapScreen } from '@/app/roadmap-screen';
import { withNamespaces } from '@/i18n/with-namespaces';
import { importWithRetry } from '@/lib/import-with-retry';
import { canEnterDash, homeEntry, returnPath } from '@/lib/session/guards';
import { sessionStore } from '@/lib/session/session';

type Lazy = NonNullable<RouteObject['lazy']>;

/** /downloads, its /d alias and /w/{slug} are one screen (spec §2). */
function downloadScreen() {
  return Promise.all([
    importWithRetry(() => import('@/features/downloads/components/download-page')),
    importWithRetry(() => import('@/features/downloads/download-loader')),
  ]).then(([page, loader]) => ({
    Component: page.DownloadPage,
    loader: loader.downloadLoader,
    shouldRevalidate: loader.shouldRevalidateDownload,
  }));
}

/**
 * Screens load on demand (spec §2 lazy-loaded screens), with the chunk retry of spec §9, and
 * with the sections of the catalogue they read (i18n/namespace-names.ts): home and the quick send
 * `send` (+ `account` for the signup modal and the verify step's errors), sign-in `account`,
 * the small marketing pages, the product pages' bodies and the comparison table `pages`, the 404 page `pages`. The download page and extension
 * read the bundled catalogue only.
 */
const screens = {
  home: withNamespaces(['send', 'account'], () =>
    importWithRetry(() => import('@/app/screens/home-page')).then((m) => ({ Component: m.HomePage })),
  ),
  pricing: withNamespaces(['send', 'billing'], () =>
    importWithRetry(() => import('@/app/screens/pricing-page')).then((m) => ({ Component: m.PricingPage })),
  ),
  about: withNamespaces(['pages'], () =>
    importWithRetry(() => import('@/features/about/components/about-page')).then((m) => ({ Component: m.AboutPage })),
  ),
  updates: withNamespaces(['pages'], () =>
    importWithRetry(() => import('@/features/updates/components/updates-page')).then((m) => ({
      Component: m.UpdatesPage,
    })),
  ),
  roadmap: withNamespaces(['pages'], roadmapScreen),
  support: withNamespaces(['send'], () =>
    importWithRetry(() => import('@/features/support/components/support-page')).then((m) => ({
      Component: m.SupportPage,
    })),
  ),
  affiliate: withNamespaces(['pages'], () =>
    importWithRetry(() => import('@/features/affiliate/components/affiliate-page')).then((m) => ({
      Component: m.AffiliatePage,
    })),
  ),
  // the lifetime-code form, the trial's thank-you page and pricing's buttons read `billing`
  sumo: withNamespaces(['pages', 'billing'], () =>
    importWithRetry(() => import('@/app/screens/sumo-page')).then((m) => ({ Component: m.SumoPage })),
  ),
  thankyou: withNamespaces(['pages'], () =>
    importWithRetry(() => import('@/features/thankyou/components/thankyou-page')).then((m) => ({
      Component: m.ThankyouDonePage,
    })),
  ),
  thankyou2: withNamespaces(['pages', 'billing'], () =>
    importWithRetry(() => import('@/features/billing/components/thankyou-trial-page')).then((m) => ({
      Component: m.ThankyouTrialPage,
    })),
  ),
  // the product pages' bodies are in `pages` (their names and taglines stay bundled for the menus)
  product: withNamespaces(['pages'], () =>
    Promise.all([
      importWithRetry(() => import('@/features/product/components/product-page')),
      importWithRetry(() => import('@/features/product/product-loader')),
    ]).then(([page, loader]) => ({ Component: page.ProductPage, loader: loader.productLoader })),
  ),
  // the comparison table's readings, competitors' figures and sources are in `pages`
  compare: withNamespaces(['pages'], () =>
    Promise.all([
      importWithRetry(() => import('@/features/compare/components/compare-page')),
      importWithRetry(() => import('@/features/compare/compare-loader')),
    ]).then(([page, loader]) => ({ Component: page.ComparePage, loader: loader.compareLoader })),
  ),
  downloads: () => downloadScreen(),
  publicLink: () => downloadScreen(),
  extension: () =>
    Promise.all([
      importWithRetry(() => import('@/features/extension/components/extension-page')),
      importWithRetry(() => import('@/features/extension/extension-loader')),
    ]).then(([page, loader]) => ({
      Component: page.ExtensionPage,
      loader: loader.extensionLoader,
      shouldRevalidate: loader.shouldRevalidateExtension,
    })),
  // file requests: the page and its catalogues arrive together (the upload card reads
  // `send`, and a refusal may name a limit from `account`)
  fileRequest: withNamespaces(['requests', 'send', 'account'], () =>
    importWithRetry(() => import('@/features/requests/routes')).then((m) => m.loadPublicRequestPage()),
  ),
  login: withNamespaces(['account'], () =>
    importWithRetry(() => import('@/features/auth/components/login-page')).then((m) => ({ Component: m.LoginPage })),
  ),
  register: withNamespaces(['account', 'billing'], () =>
    importWithRetry(() => import('@/app/screens/register-page')).then((m) => ({ Component: m.RegisterPage })),
  ),
  updatePassword: withNamespaces(['account'], () =>
    importWithRetry(() => import('@/features/auth/components/update-password-page')).then((m) => ({
      Component: m.UpdatePasswordPage,
    })),
  ),
  // the team invite page (its texts in `teams`, the refusals' in `pages`)
  invite: withNamespaces(['teams', 'pages'], () =>
    importWithRetry(() => import('@/features/teams/components/invite-page')).then((m) => ({ Component: m.InvitePage })),
  ),
  // the public API's reference, rendered from GET /api/v1/openapi.json (its module loads the `developers` catalogue)
  developers: () => importWithRetry(() => import('@/features/developers/routes')).then((m) => m.developersPage()),
  // checking a delivery receipt: its chunk carries the JOSE library, which no other screen loads
  verify: withNamespaces(['pages'], () =>
    importWithRetry(() => import('@/features/verify/components/verify-page')).then((m) => ({
      Component: m.VerifyPage,
    })),
  ),
  dash: () =>
    importWithRetry(() => import('@/features/auth/components/dash-guard')).then((m) => ({ Component: m.DashGuard })),
  // its texts are in `pages`, so that no other screen's first load carries them
  notFound: withNamespaces(['pages'], () =>
    importWithRetry(() => import('@/features/not-found/components/not-found-page')).then((m) => ({
      Component: m.NotFoundPage,
    })),
  ),
} satisfies Record<RouteId, Lazy>;

/**
 * Home (spec §2): a stored session flag is checked and a signed-in visitor goes to the
 * dashboard; a flag that no longer renews has been cleared and sends to Login, as does
 * ?ref=trial_ending. Everyone else sees the home page.
 */
async function homeLoader({ request }: LoaderFunctionArgs) {
  const entry = await homeEntry(new URL(request.url).searchParams, sessionStore());
  if (entry === 'dash') return replace(paths.dash());
  if (entry === 'login') return replace(paths.login());
  return null;
}

/**
 * Dashboard guard (spec §2): signed in, or a stored flag that renews; otherwise Login with
 * the full path and query to come back to. Quick-send state needs no reset here: it lives in
 * the QuickSend component, which unmounts when the dashboard replaces home.
 */
async function dashGuardLoader({ request }: LoaderFunctionArgs) {
  if (await canEnterDash(sessionStore())) return null;
  return replace(paths.login({ redirect: returnPath(new URL(request.url)) }));
}

/** Route settings beyond the screen: guards and the dashboard's own child routes. */
const EXTRA: Partial<Record<RouteId, Omit<RouteObject, 'id' | 'path' | 'lazy' | 'index'>>> = {
  home: { loader: homeLoader },
  dash: { loader: dashGuardLoader, children: dashRoutes },
};

/** A route and its aliases, all rendering the same screen. */
function served(id: RouteId): RouteObject[] {
  const { pattern, aliases } = ROUTES[id];
  return [pattern, ...aliases].map(
    (path) => ({ id: path === pattern ? id : `${id}:${path}`, path, lazy: screens[id], ...EXTRA[id] }) as RouteObject,
  );
}

function keepSearch(request: Request): string {
  return new URL(request.url).search;
}

/**
 * Aliases of routes whose screens later issues build (none today: PLANNED_ROUTES have none) already
 * redirect to their canonical address, keeping the query; the canonical route is served when
 * its screen lands, and until then lands on /404/ like any other missing page.
 */
const plannedAliasRedirects: RouteObject[] = PLANNED_ROUTES.flatMap(
  ({ pattern, aliases }: { pattern: string; aliases: readonly string[] }) =>
    aliases.map((alias) => ({
      path: alias,
      loader: ({ params, request }: LoaderFunctionArgs) => replace(generatePath(pattern, params) + keepSearch(request)),
      element: null,
    })),
);

/** Unknown paths, including routes of later issues (PLANNED_ROUTES), go to /404/?path=... */
function notFoundRedirect({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return replace(paths.notFound(url.pathname + url.search));
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <Layout />,
    HydrateFallback: PageLoading,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          ...(Object.keys(ROUTES) as RouteId[]).flatMap(served),
          ...COMPARE_REDIRECTS.map(({ from, to }) => ({
            path: from,
            loader: ({ request }: LoaderFunctionArgs) => replace(paths.compare(to) + keepSearch(request)),
            // Redirect-only routes render nothing; null (not undefined) says so to the router.
            element: null,
          })),
          ...plannedAliasRedirects,
          { path: '*', loader: notFoundRedirect, element: null },
        ],
      },
    ],
  },
];
