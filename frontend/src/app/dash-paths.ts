/** Hrefs of the dashboard screens this feature serves (children of /dash, spec §2). */
export const DASH = '/dash';

export const dashPaths = {
  home: () => DASH,
  account: () => `${DASH}/account`,
  profile: () => `${DASH}/account/profile`,
  analytics: () => `${DASH}/analytics`,
  /** the transfers list; search: the list's own query (?filter=&q=), kept while a transfer is open */
  transfers: (search = '') => `${DASH}/transfers${search}`,
  /** the TransferModal (route id TransferModal) over the list */
  transfer: (slug: string, search = '') => `${DASH}/transfers/${encodeURIComponent(slug)}${search}`,

  // Contacts
  contacts: () => `${DASH}/contacts`,
  // ---- file requests ----
  /** the requester's requests and "New request" */
  requests: () => `${DASH}/requests`,
  /** one request with its uploads (spec §2 /dash/requests/{slug}; the slug is the request's id) */
  request: (id: string) => `${DASH}/requests/${encodeURIComponent(id)}`,
  // ---- storage region, settings, the roadmap inside the dashboard
  dataResidency: () => `${DASH}/data-residency`,
  settings: () => `${DASH}/settings`,
  roadmap: (itemId?: string) => (itemId ? `${DASH}/roadmap/${encodeURIComponent(itemId)}` : `${DASH}/roadmap`),
} as const;
