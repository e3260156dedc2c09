import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { whenIdle } from '@/lib/when-idle';

let loaded = false;

/**
 * Issue 16: the head of every screen from the route table (app/seo-routes.ts), applied by
 * lib/seo-head.ts, a chunk of its own so that it adds nothing to a first load: `noindex` on the
 * routes kept out of search, `<meta name="referrer" content="no-referrer">` on the private ones
 * (download, request, invite, extension, dashboard pages; on a first load the server already
 * sent both as headers), and on public pages the description, canonical URL and hreflang
 * alternates. The chunk is first fetched when the browser is idle after the first screen; from
 * then on each navigation applies the new route's head at once.
 */
export function useRouteHead(): void {
  const { pathname, search } = useLocation();
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  useEffect(() => {
    let current = true;
    const run = () => {
      loaded = true;
      import('@/lib/seo-head')
        .then((m) => (current ? m.applyRouteHead({ pathname, search, language }) : undefined))
        .catch(() => undefined); // the servers' headers still cover a first load of a private page
    };
    const cancel = loaded ? (run(), undefined) : whenIdle(run);
    return () => {
      current = false;
      cancel?.();
    };
  }, [pathname, search, language]);
}
