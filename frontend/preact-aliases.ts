/**
 * The app runs on Preact through preact/compat, not on React (docs/decisions.md, "Preact in
 * place of React"): every import of `react` and `react-dom` (ours, react-router's,
 * react-i18next's, react-markdown's) resolves to it in `vite build`, the dev server and the
 * unit tests, so the tests render what ships. Types stay @types/react's (strict typecheck of
 * the same source). Exact matches only: `react-router`, `react-i18next` and `react-markdown`
 * are real packages.
 */
export const PREACT_ALIASES: { readonly find: RegExp; readonly replacement: string }[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  // react-i18next's fallback for Reacts before 18; preact/compat has the hook itself
  { find: /^use-sync-external-store\/shim$/, replacement: 'preact/compat' },
];
