/**
 * Catalogues the first load does not carry: the dashboard's screens read them, so a visitor of
 * the home or download page never downloads their text ('s first-load budgets). Each is
 * `locales/<namespace>/<lang>.json`, English included; a screen that uses one waits for it in its
 * route's `lazy` (see `withNamespaces`) or renders once `useTranslation(ns)` reports it ready.
 *
 * - `transfers`: transfers list, TransferModal, dashboard home's recent transfers
 * - `insights`: notifications bell, analytics, what's-new panel
 * - `contacts`: the contacts screen and its dashboard tab
 * - `requests`: file requests: the public /r/{id} page, /dash/requests and one request
 * - `settings`: storage region picker (/dash/data-residency), /dash/settings, the dashboard's
 *   tabs to them and the plan table's region column
 * - `domains`: the domain settings page /dash/account/domain
 * - `billing`: plans and billing: checkout (register step 3, /dash/account tab 1),
 *   /thankyou2, the account page's subscription status, /dash/account/billing and its
 *   invoices, the lifetime-code form on /appsumoforever, pricing's trial and contact buttons
 * - `teams`: /dash/account/teams, the /invite/{id} page and the read-only note of a shared
 *   transfer (the teams error codes' texts are in `pages`, `teamErrors.…`)
 *
 * - `branding`: the /dash/account/customize and /dash/account/powered-by
 * - `previews`: the previews (thumbnails, players, the viewer) on the download page and
 *   in the TransferModal, loaded with their chunk after the page has rendered
 * - `marketing`: the extras of the home page (the formats and platforms strip, the example
 *   activity toasts), loaded with them after the page is idle, never on a first load
 * - `webhooks`: the /dash/account/webhooks (endpoints, secrets, delivery logs; the
 *   webhook error codes' texts stay in `pages`, `webhookErrors.…`)
 * - `api`: the public API screens, one catalogue for both (each new catalogue adds its
 *   loaders to the home's first load): `keys.…` the dashboard's /dash/account/api-keys (the key
 *   errors' texts are in `pages`, `apiKeyErrors.…`), `docs.…` the public /developers page
 * - `abuse`: the 'Report this transfer' form on the download page, loaded with its chunk
 *   when the visitor opens it
 * - `access`: a verified recipient's code step on the download page and its 410 states, loaded
 *   with its chunk only for such a transfer; like `live`, its loaders are in the main table, so
 *   the download page's first load carries none of it
 * - `live`: the download page of a transfer still uploading (progress, "Mail me when it's
 *   complete"), loaded with its chunk only for such a transfer; its loaders are in the main
 *   table (namespace-files.ts), not the download page's, so a complete transfer's first load
 *   carries none of it
 * - `reviewer`: the review view of the download page (comments, pins, decisions, "who is
 *   commenting?"), loaded with its chunk only for a transfer with review on; its loaders are in
 *   the main table, like `live`'s
 * - `sender-review`: the sender's review of a transfer in the TransferModal (threads, replies,
 *   decisions, exports) and the bell's review items, loaded with their chunks; its loaders are a
 *   table of their own (review-namespace-files.ts), not in the dashboard's first load
 *
 * Three more hold whole sections of the former bundled catalogue, under the same keys (`home.…`,
 * `send.…`), so the bundled one keeps only what every screen and the download page read (issue
 * 10's 90 KiB download page). A component reads them with a plain `useTranslation()`: i18next
 * looks a key it does not find in `translation` up in these (`fallbackNS`), once its screen's
 * route has loaded them (routes.tsx, `withNamespaces`).
 *
 * - `send`: home, the quick send and upload cards, support articles, pricing (home, /pricing,
 *   /support, the dashboard, the file request page)
 * - `account`: sign-in, registration and the signup modal, the dashboard frame and its
 *   account screens (home, auth pages, the dashboard)
 * - `pages`: roadmap, about, affiliate, sumo, thank-you and updates pages (also the dashboard's
 *   what's-new panel and account page)
 */
export const LAZY_NAMESPACES = [
  'transfers',
  'insights',
  'contacts',
  'requests',
  'settings',
  'billing',
  'send',
  'account',
  'pages',
  'teams',
  'domains',
  'branding',
  'previews',
  'marketing',
  'webhooks',
  'api',
  'abuse',
  'live',
  'access',
  'reviewer',
  'sender-review',
] as const;
/** The lazy namespaces a plain `useTranslation()` falls back to (i18n.ts, i18next.d.ts). */
export const SECTION_NAMESPACES = ['send', 'account', 'pages'] as const satisfies readonly LazyNamespace[];
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];

export function isLazyNamespace(ns: string): ns is LazyNamespace {
  return (LAZY_NAMESPACES as readonly string[]).includes(ns);
}

/** The catalogues the download page reads: their loaders are a small table of their own. */
export const DOWNLOAD_PAGE_NAMESPACES = ['previews', 'abuse'] as const satisfies readonly LazyNamespace[];
export type DownloadPageNamespace = (typeof DOWNLOAD_PAGE_NAMESPACES)[number];
