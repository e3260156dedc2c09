/**
 * The lazy route modules a first visit to a screen loads (the `lazy` of its routes in
 * src/app/routes.tsx and src/app/dash-routes.tsx), with the addresses that show it,
 * and the lazy catalogues (src/i18n/namespace-names.ts) its routes wait for (`withNamespaces`), whose
 * English files a first visit loads as well. Read by the build (route-preload plugin in
 * vite.config.ts).
 */
export const SCREENS = {
  /** /downloads/{id}/…, /d/{id}/…, /w/{slug} */
  download: {
    paths: /^\/(downloads|d|w)\//,
    // with the previews' chunk and texts, which the page imports after its first render: preloaded
    // with the route, they are not one more round trip before the thumbnails (the largest paint)
    modules: [
      'src/features/downloads/components/download-page.tsx',
      'src/features/downloads/download-loader.ts',
      'src/components/previews/preview-gallery.tsx',
    ],
    namespaces: ['previews'],
  },
  /** / for a visitor without a session */
  home: { paths: /^\/$/, modules: ['src/app/screens/home-page.tsx'], namespaces: ['send', 'account'] },
  /** /dash: the guard, the dashboard layout and its home */
  dash: {
    paths: /^\/dash\/?$/,
    modules: [
      'src/features/auth/components/dash-guard.tsx',
      'src/app/screens/dash-layout.tsx',
      'src/app/screens/dashboard-home.tsx',
    ],
    namespaces: ['transfers', 'insights', 'contacts', 'requests', 'send', 'account', 'pages'],
  },
} as const satisfies Record<
  string,
  { readonly paths: RegExp; readonly modules: readonly string[]; readonly namespaces: readonly string[] }
>;

/** The manifest key of a lazy catalogue's English file (what a first visit in English loads). */
export function namespaceModule(ns: string): string {
  return `src/i18n/locales/${ns}/en.json`;
}

/**
 * The table of loaders of a lazy catalogue, fetched the first time one of its catalogues is
 * needed: the download page's two (src/i18n/namespace-names.ts, DOWNLOAD_PAGE_NAMESPACES) have a small one.
 */
export function namespaceLoaderModule(ns: string): string {
  return ns === 'previews' || ns === 'abuse' ? 'src/i18n/download-namespace-files.ts' : 'src/i18n/namespace-files.ts';
}

export type Screen = keyof typeof SCREENS;
