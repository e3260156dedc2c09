/**
 * The <head> tags the route head (route-head.ts, seo-head.ts) owns carry this attribute; tags of
 * the screens' own hooks (useNoIndex) are left alone.
 */
export const ROUTE_HEAD_ATTRIBUTE = 'data-route-head';
