import type { RouteId } from './paths';

/**
 * How each route stands towards search engines (app/seo-routes.ts says what each kind means).
 * A module of its own so that the app shell's route head (lib/route-head.ts) can tell a private
 * screen by its route id without the rest of seo-routes.ts.
 */
export type Indexing = 'index' | 'noindex' | 'private';

export const ROUTE_INDEXING = {
  home: 'index',
  pricing: 'index',
  about: 'index',
  updates: 'index',
  roadmap: 'index',
  support: 'index',
  affiliate: 'index',
  sumo: 'index',
  product: 'index',
  compare: 'index',
  thankyou: 'noindex',
  thankyou2: 'noindex',
  login: 'noindex',
  register: 'noindex',
  notFound: 'noindex',
  downloads: 'private',
  publicLink: 'private',
  fileRequest: 'private',
  extension: 'private',
  invite: 'private',
  updatePassword: 'private',
  dash: 'private',
  // the public API's reference: meant to be found by search engines
  developers: 'index',
  // checking a delivery receipt: public, for anyone handed one
  verify: 'index',
} as const satisfies Record<RouteId, Indexing>;
