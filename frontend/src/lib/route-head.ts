import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches } from 'react-router';
import { ROUTE_INDEXING } from '@/app/route-indexing';
import { ROUTE_HEAD_ATTRIBUTE } from '@/lib/route-head-attribute';
import { holdNoIndex } from '@/lib/use-no-index';
import { whenIdle } from '@/lib/when-idle';

let loaded = false;
/** The first screen's hold on `noindex` when it is private, handed to lib/seo-head.ts once that loads. */
let firstHold: (() => void) | undefined;

/** Route ids are the RouteId, or `<RouteId>:<alias>` for an alias; the dashboard's children sit under `dash`. */
function isPrivateRoute(ids: readonly string[]): boolean {
  return ids.some((id) => (ROUTE_INDEXING as Readonly<Record<string, string>>)[id.split(':')[0] ?? ''] === 'private');
}

/** On a first load of a private screen: the two tags the route head would write there, without its chunk. */
function privateHead(): void {
  firstHold ??= holdNoIndex();
  if (document.head.querySelector(`meta[name="referrer"][${ROUTE_HEAD_ATTRIBUTE}]`)) return;
  const meta = document.createElement('meta');
  meta.name = 'referrer';
  meta.content = 'no-referrer';
  meta.setAttribute(ROUTE_HEAD_ATTRIBUTE, '');
  document.head.append(meta);
}

/**
 * The head of every screen from the route table (app/seo-routes.ts), applied by lib/seo-head.ts,
 * a chunk of its own so that it adds nothing to a first load: `noindex` on the routes kept out of
 * search, `<meta name="referrer" content="no-referrer">` on the private ones (download, request,
 * invite, extension, dashboard pages), and on public pages the description, canonical URL and
 * hreflang alternates. The chunk is first fetched when the browser is idle after the first
 * screen; from then on each navigation applies the new route's head at once. A private screen
 * needs none of it (the server sent both as headers already, and the two tags are written here),
 * so until the visitor moves on to another kind of page it is not fetched at all: the download
 * page's thumbnails show 1.8 KiB sooner.
 */
export function useRouteHead(): void {
  const { pathname, search } = useLocation();
  const privateRoute = isPrivateRoute(useMatches().map((m) => m.id));
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  useEffect(() => {
    if (!loaded && privateRoute) {
      privateHead();
      return;
    }
    let current = true;
    const run = () => {
      loaded = true;
      import('@/lib/seo-head')
        .then((m) => {
          if (!current) return;
          const heldNoIndex = firstHold;
          firstHold = undefined;
          return m.applyRouteHead({ pathname, search, language, heldNoIndex });
        })
        .catch(() => undefined); // the servers' headers still cover a first load of a private page
    };
    let cancel: (() => void) | undefined;
    if (loaded) run();
    else cancel = whenIdle(run);
    return () => {
      current = false;
      cancel?.();
    };
  }, [pathname, search, language, privateRoute]);
}
