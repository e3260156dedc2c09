/**
 * The lazy route modules a first visit to a screen loads (the `lazy` of its routes in
 * src/app/routes.tsx and src/features/dashboard/routes.tsx), with the addresses that show it.
 * Read by the build (route-preload plugin in vite.config.ts) and the first-load budget test.
 */
export const SCREENS = {
  /** /downloads/{id}/…, /d/{id}/…, /w/{slug} */
  download: {
    paths: /^\/(downloads|d|w)\//,
    modules: ['src/features/downloads/components/download-page.tsx', 'src/features/downloads/download-loader.ts'],
  },
  /** / for a visitor without a session */
  home: { paths: /^\/$/, modules: ['src/features/home/components/home-page.tsx'] },
  /** /dash: the guard, the dashboard layout and its home */
  dash: {
    paths: /^\/dash\/?$/,
    modules: [
      'src/features/auth/components/dash-guard.tsx',
      'src/features/dashboard/components/dash-layout.tsx',
      'src/features/dashboard/components/dashboard-home.tsx',
    ],
  },
} as const satisfies Record<string, { readonly paths: RegExp; readonly modules: readonly string[] }>;

export type Screen = keyof typeof SCREENS;
