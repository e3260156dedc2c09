import { replace, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { paths } from '@/app/paths';
import { withNamespaces } from '@/i18n/with-namespaces';
import { importWithRetry } from '@/lib/import-with-retry';
import { roadmapScreen } from './roadmap-screen';

/** The list and the TransferModal come through one module (features/transfers/routes.ts). */
const transfersScreens = () => importWithRetry(() => import('@/features/transfers/routes'));

// ---- file requests: one small module fetches the screens (features/requests/routes.ts) ----
const requestsScreens = () => importWithRetry(() => import('@/features/requests/routes'));
/** The screens (storage region picker, settings) come through one module. */
const settingsScreen = (screen: 'dataResidency' | 'settings') => () =>
  importWithRetry(() => import('@/features/settings/routes')).then((m) => m[screen]());
/** The billing screens (billing page, one invoice) come through one module, with their `billing` catalogue. */
const billing = (screen: 'billingPage' | 'invoicePage') =>
  withNamespaces(['billing'], () =>
    importWithRetry(() => import('@/features/billing/routes')).then((m) => m[screen]()),
  );
/** The domain settings, with its own `domains` catalogue. */
const domainSettings = withNamespaces(['domains'], () =>
  importWithRetry(() => import('@/features/domains/routes')).then((m) => m.domainSettings()),
);

/** The webhooks screen, with its own `webhooks` catalogue. */
const webhooksPage = withNamespaces(['webhooks'], () =>
  importWithRetry(() => import('@/features/webhooks/routes')).then((m) => m.webhooksPage()),
);
/** The API keys screen; its module also loads the `api` catalogue. */
const apiKeys = () => importWithRetry(() => import('@/features/api-keys/routes')).then((m) => m.apiKeysPage());

/** The branding screens come through one module, which also loads their `branding` catalogue. */
const branding = (screen: 'customize' | 'poweredBy') => () =>
  importWithRetry(() => import('@/features/branding/routes')).then((m) => m[screen]());

/**
 * Children of /dash (spec §2), mounted behind the login guard. The screens load on demand
 * (DashboardHome is one of spec §2's lazy screens) with the chunk retry of spec §9.
 */
const screens = {
  // The layout's tabs and What's-new button read these catalogues; as every /dash screen waits
  // for the layout, the transfers screens (list, TransferModal, the home's recent ones) have theirs too,
  // as do the quick send (`send`), the account screens (`account`) and the roadmap and what's new (`pages`).
  layout: withNamespaces(['transfers', 'insights', 'contacts', 'requests', 'send', 'account', 'pages'], () =>
    importWithRetry(() => import('./screens/dash-layout')).then((m) => ({ Component: m.DashLayout })),
  ),
  home: () => importWithRetry(() => import('./screens/dashboard-home')).then((m) => ({ Component: m.DashboardHome })),
  // the account's plan card and its plan tab read the `billing` catalogue
  account: withNamespaces(['billing'], () =>
    importWithRetry(() => import('./screens/account-page')).then((m) => ({ Component: m.AccountPage })),
  ),
  profile: () =>
    importWithRetry(() => import('@/features/dashboard/components/profile-page')).then((m) => ({
      Component: m.ProfilePage,
    })),
  // The chart, the map and their data load with this screen only (its catalogue came with the layout).
  analytics: () =>
    importWithRetry(() => import('@/features/analytics/components/analytics-page')).then((m) => ({
      Component: m.AnalyticsPage,
    })),
  transfers: () => transfersScreens().then((m) => ({ Component: m.TransfersPage })),
  transferModal: () => transfersScreens().then((m) => m.loadTransferModal()),
  // Contacts (spec §2 lists it among the lazy screens); its catalogue came with the layout.
  contacts: () =>
    importWithRetry(() => import('@/features/contacts/components/contacts-page')).then((m) => ({
      Component: m.ContactsPage,
    })),
  // file requests; their catalogue came with the layout (its Requests tab reads it)
  requests: () => requestsScreens().then((m) => m.loadRequestsPage()),
  requestDetail: () => requestsScreens().then((m) => m.loadRequestDetailPage()),
} satisfies Record<string, NonNullable<RouteObject['lazy']>>;

/** The Teams screen, with its `teams` catalogue. */
const teamsPage = withNamespaces(['teams'], () =>
  importWithRetry(() => import('@/features/teams/components/teams-page')).then((m) => ({ Component: m.TeamsPage })),
);

/** The Teams screen moved under the account; /dash/teams keeps working, query included. */
function teamsRedirect({ request }: LoaderFunctionArgs) {
  return replace(paths.teams() + new URL(request.url).search);
}

/** The billing page moved under the account: the old address keeps working, query included. */
function billingRedirect({ request }: LoaderFunctionArgs) {
  return replace(paths.accountBilling() + new URL(request.url).search);
}

/**
 * The other /dash children of spec §2 (customize, powered-by) are built by
 * later issues; until
 * then they, like any unknown /dash path, go to /404/?path=... as the app's own catch-all does.
 */
function notFoundRedirect({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return replace(paths.notFound(url.pathname + url.search));
}

export const dashRoutes: RouteObject[] = [
  {
    id: 'dash-layout',
    lazy: screens.layout,
    children: [
      { index: true, id: 'dashboard', lazy: screens.home },
      { path: 'account', id: 'account', lazy: screens.account },
      { path: 'account/profile', id: 'accountProfile', lazy: screens.profile },
      // ---- billing (spec §2 named route accountBilling) and the simulator's hosted invoice page
      { path: 'account/billing', id: 'accountBilling', lazy: billing('billingPage') },
      { path: 'account/billing/invoices/:id', id: 'accountInvoice', lazy: billing('invoicePage') },
      // ---- spec §2 named route domainSettings
      { path: 'account/domain', id: 'domainSettings', lazy: domainSettings },
      { path: 'billing', loader: billingRedirect, element: null },
      // ---- teams (spec §2 named route teams)
      { path: 'account/teams', id: 'teams', lazy: teamsPage },
      { path: 'teams', loader: teamsRedirect, element: null },
      { path: 'analytics', id: 'analytics', lazy: screens.analytics },
      // The TransferModal is a child of the list, so the list stays behind it (spec §2).
      {
        path: 'transfers',
        id: 'transfers',
        lazy: screens.transfers,
        children: [{ path: ':slug', id: 'TransferModal', lazy: screens.transferModal }],
      },
      // Contacts
      { path: 'contacts', id: 'contacts', lazy: screens.contacts },
      // file requests
      { path: 'requests', id: 'requests', lazy: screens.requests },
      { path: 'requests/:slug', id: 'requestDetail', lazy: screens.requestDetail },
      // ---- storage region, settings, roadmap (no route ids: none of spec §2's named routes)
      { path: 'data-residency', lazy: settingsScreen('dataResidency') },
      { path: 'settings', lazy: settingsScreen('settings') },
      { path: 'roadmap/*', lazy: roadmapScreen },
      // ---- branding (spec §2 /dash/account/customize, /dash/account/powered-by)
      { path: 'account/customize', id: 'accountCustomize', lazy: branding('customize') },
      { path: 'account/powered-by', id: 'accountPoweredBy', lazy: branding('poweredBy') },
      // ---- webhooks (endpoints, secrets, delivery logs)
      { path: 'account/webhooks', lazy: webhooksPage },
      // ---- API keys (hidden from team members unless their admin allows keys)
      { path: 'account/api-keys', id: 'apiKeys', lazy: apiKeys },
      // the customize screen moved under the account: the old address keeps working
      { path: 'customize', loader: () => replace(paths.accountCustomize()), element: null },
    ],
  },
  { path: '*', loader: notFoundRedirect, element: null },
];
