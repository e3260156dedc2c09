import { LANGUAGES } from './src/i18n/languages';
import { SCREENS, type Screen } from './screen-modules';

/** Where the build writes the prerendered pages (prerender-plugin.ts), beside index.html. */
export const PRERENDERED_DIR = 'prerendered';

export type PrerenderedPageSpec =
  /**
   * the screen itself, hydrated by main.tsx: its address, the key of its title, and its entry
   * in screen-modules.ts, whose stylesheets the HTML links (they would otherwise arrive with the
   * route's chunk and move what is already painted)
   */
  | {
      readonly kind: 'page';
      readonly paths: RegExp;
      readonly pathname: string;
      readonly titleKey: string;
      readonly screen: Screen;
    }
  /** the app's frame around the loading state, for a screen whose content comes from the API */
  | { readonly kind: 'shell'; readonly paths: RegExp; readonly screen: Screen };

/** The pages the build renders to HTML, one file per language, and the addresses that get them. */
export const PRERENDERED_PAGES: Readonly<Record<string, PrerenderedPageSpec>> = {
  home: { kind: 'page', paths: /^\/$/, pathname: '/', titleKey: 'home.title', screen: 'home' },
  download: { kind: 'shell', paths: SCREENS.download.paths, screen: 'download' },
};

const PAGE_PATTERNS = Object.entries(PRERENDERED_PAGES).map(([name, page]) => [page.paths.source, name]);

/**
 * The app behaviour's viewer-request function (CloudFront Functions, JS 2.0 runtime), and the
 * same code run by the local built-app server (app-server.ts), so both pick the same file:
 * - a last segment with a dot is a file of the build, served as it is;
 * - a prerendered page's address (PRERENDERED_PAGES) gets `/prerendered/<page>.<lang>.html`, the language from
 *   `?lng=` if it names one of ours, else the best of Accept-Language (by q, then order), else
 *   English, as the app's own detection would choose before it reads localStorage (a choice
 *   stored there that differs is caught by main.tsx, which then renders instead of hydrating);
 * - any other address is a client-side route and gets /index.html.
 * Only the URI changes, so CloudFront's cache key (the rewritten URI) needs no header.
 */
export const SPA_REWRITE_FUNCTION = `var LANGUAGES = ${JSON.stringify(LANGUAGES)};
var PAGES = ${JSON.stringify(PAGE_PATTERNS)};
function base(tag) {
  return tag.trim().toLowerCase().split('-')[0].split('_')[0];
}
function language(request) {
  var lng = request.querystring && request.querystring.lng;
  if (lng && lng.value && LANGUAGES.indexOf(base(lng.value)) !== -1) return base(lng.value);
  var header = request.headers && request.headers['accept-language'];
  var best = null;
  var bestQ = 0;
  if (header && header.value) {
    var ranges = header.value.split(',');
    for (var i = 0; i < ranges.length; i++) {
      var parts = ranges[i].split(';');
      var q = 1;
      for (var j = 1; j < parts.length; j++) {
        var p = parts[j].trim();
        if (p.indexOf('q=') === 0) q = parseFloat(p.substring(2));
      }
      var tag = base(parts[0]);
      if (LANGUAGES.indexOf(tag) !== -1 && q > bestQ) {
        best = tag;
        bestQ = q;
      }
    }
  }
  return best || 'en';
}
function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') !== -1) return request;
  var page = null;
  for (var i = 0; i < PAGES.length && !page; i++) if (new RegExp(PAGES[i][0]).test(request.uri)) page = PAGES[i][1];
  request.uri = page ? '/${PRERENDERED_DIR}/' + page + '.' + language(request) + '.html' : '/index.html';
  return request;
}`;

export interface ViewerRequest {
  uri: string;
  readonly querystring?: Readonly<Record<string, { readonly value: string }>>;
  readonly headers?: Readonly<Record<string, { readonly value: string }>>;
}

/** SPA_REWRITE_FUNCTION as a function, for the local servers and the tests. */
export function spaRewrite(): (event: { request: ViewerRequest }) => ViewerRequest {
  return new Function(`${SPA_REWRITE_FUNCTION}; return handler;`)() as (event: {
    request: ViewerRequest;
  }) => ViewerRequest;
}
