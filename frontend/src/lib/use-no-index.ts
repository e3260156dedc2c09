import { useEffect } from 'react';

let holders = 0;
let meta: HTMLMetaElement | null = null;

/**
 * One `<meta name="robots" content="noindex">` in <head> for every screen and route rule that asks
 * for it (a screen's useNoIndex, the route head of lib/seo-head.ts), removed when the last
 * one lets go: never two of them. Returns the release.
 */
export function holdNoIndex(): () => void {
  holders += 1;
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) {
      meta?.remove();
      meta = null;
    }
  };
}

/**
 * `noindex` while the screen is mounted (private or error pages stay out of search engines). A
 * hook, not a `<meta>` in the JSX: React 19 would hoist that tag into <head>, but one per
 * rendering component, so a screen's and its route rule's would stand there twice.
 */
export function useNoIndex(): void {
  useEffect(() => holdNoIndex(), []);
}
