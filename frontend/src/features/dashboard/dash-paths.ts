/** Hrefs of the dashboard screens this feature serves (children of /dash, spec §2). */
export const DASH = '/dash';

export const dashPaths = {
  home: () => DASH,
  account: () => `${DASH}/account`,
  profile: () => `${DASH}/account/profile`,
} as const;
