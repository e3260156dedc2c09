import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { indexingFor } from '@/app/seo-routes';

/** The <head> tags this hook owns carry this attribute; tags of the screens' own hooks (useNoIndex) are left alone. */
export const ROUTE_HEAD_ATTRIBUTE = 'data-route-head';
/** What CloudFront and the local servers send on public pages (frontend/csp.ts). */
const PUBLIC_REFERRER_POLICY = 'strict-origin-when-cross-origin';

function setMeta(name: string, content: string | undefined): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"][${ROUTE_HEAD_ATTRIBUTE}]`);
  if (content === undefined) {
    meta?.remove();
    return;
  }
  if (meta?.content === content) return;
  // A new element rather than a changed attribute: browsers apply a referrer policy when its
  // <meta> is inserted.
  meta?.remove();
  meta = document.createElement('meta');
  meta.name = name;
  meta.content = content;
  meta.setAttribute(ROUTE_HEAD_ATTRIBUTE, '');
  document.head.append(meta);
}

type IdleWindow = Window & { requestIdleCallback?: (cb: () => void) => number; cancelIdleCallback?: (id: number) => void };

/**
 * Issue 16: the head of every screen from the route table (app/seo-routes.ts). At once: `noindex`
 * on the routes kept out of search, and on private ones (download, request, invite, extension,
 * dashboard pages) `<meta name="referrer" content="no-referrer">`, so a link carrying a transfer
 * id never reaches another site in a Referer header (the servers send the same as headers on a
 * first load). When the browser is idle: the description, canonical URL and hreflang
 * alternates, from a chunk of their own (lib/seo-head.ts) that adds nothing to a first load.
 */
export function useRouteHead(): void {
  const { pathname, search } = useLocation();
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  useEffect(() => {
    const indexing = indexingFor(pathname);
    setMeta('robots', indexing === 'index' ? undefined : 'noindex');
    setMeta('referrer', indexing === 'private' ? 'no-referrer' : PUBLIC_REFERRER_POLICY);
    let cancelled = false;
    const run = () => {
      import('@/lib/seo-head')
        .then((m) => (cancelled ? undefined : m.applySeoHead({ pathname, search, language })))
        .catch(() => undefined); // a missing description is not worth an error screen
    };
    const w = window as IdleWindow;
    const handle = w.requestIdleCallback ? w.requestIdleCallback(run) : window.setTimeout(run, 200);
    return () => {
      cancelled = true;
      if (w.cancelIdleCallback) w.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, [pathname, search, language]);
}
