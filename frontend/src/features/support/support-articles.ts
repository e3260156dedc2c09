/** Support article ids; texts live in the locales under support.items.<id>. */
export const SUPPORT_ARTICLES = [
  'getting-started',
  'file-size',
  'expiry',
  'security',
  'file-types',
  'regions',
  'trial-refund',
  'tracking',
  // Linked from registration's legal line (auth.register.legal).
  'privacy',
  'terms',
] as const;

export type SupportArticleId = (typeof SUPPORT_ARTICLES)[number];

export function isSupportArticle(value: string | null): value is SupportArticleId {
  return (SUPPORT_ARTICLES as readonly (string | null)[]).includes(value);
}
