import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin, type Rollup, type UserConfig } from 'vite';
import { prerenderPages } from './prerender-plugin';
import { publicOrigin, renderRobots, renderSitemap } from './seo-files';
import { namespaceLoaderModule, namespaceModule, SCREENS } from './screen-modules';
import { playCloudFront } from '../scripts/local/edge';

const frontendRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export const DEFAULT_WEB_PORT = 5173;

/**
 * The send form's modules that load with it: features/send, the form's state and fields
 * (shared/send-form, which the TransferModal's panels and the file request page share), the
 * upload card's pieces (shared/upload) and the toasts, icons and copy hooks they use. Not the
 * upload engine nor send-flow, which load on first use, nor the recorder beyond its loader and
 * support check, nor send-defaults (only the dashboard's home reads it). Left to itself the
 * bundler splits each module these screens share into a chunk of its own (six small files, 3.5 KiB
 * more gzip on home). One chunk keeps the first load whole. The progress bar's time arithmetic
 * (domain/time-remaining.ts), which only the send code imports, joins it rather than being a file
 * of its own; so do the upload rules (domain/upload.ts, which neither the API client nor the
 * download page imports). The end-to-end encryption's code (e2e-seal, the sender's thumbnails, the
 * pdf.js worker, the sealed-part arithmetic) stays out: it loads only for an encrypted send; so
 * does the options panel with its tabs, loaded when the form is first used (lazy-options-panel.tsx).
 */
export const SEND_FORM_MODULES =
  /\/frontend\/src\/(features\/send\/(?!recorder\/(?!lazy-recorder-panel|recording-support)|components\/(options-panel|option-tabs|sharing-tab|verified-option|expiry-tab|e2e-option)\.tsx$)|shared\/send-form\/(?!send-defaults\.ts)|shared\/upload\/(?!(engine|http-api|speed|transport|send-flow|sealed-parts|e2e-seal|e2e-thumbnails|pdf-worker)\.ts$)|components\/(send-icons|recorder-icons|toast-stack)\.tsx$|lib\/(use-toasts|use-copy-link|use-shake)\.ts$)|\/functions\/domain\/(time-remaining|upload)\.ts$/;
/**
 * The download page's modules that the file request screen also uses to download an
 * upload: the calls, the ZIP poll, the browser hand-off (shared/downloads), the date format, and
 * sizes in the reader's locale (lib/format-size.ts, the dashboard's too). Left to itself the
 * bundler moves each shared one out of the download page's chunk into a chunk of its own (four
 * small files, 0.6 KiB more gzip on the download page); one chunk keeps that first load whole.
 */
// With the loader of the previews' chunk (components/previews/lazy-previews), which the
// TransferModal shares, and the locale-aware size format of the download page; the loader table
// of its catalogues; and the end-of-road pieces it shares with the 404 and thank-you pages
// (home-support-actions, config/company), files of their own otherwise
export const DOWNLOAD_SHARED_MODULES =
  /\/frontend\/src\/(features\/downloads\/download-failure\.ts|shared\/downloads\/(download-api|zip-poll|start-browser-download)\.ts|lib\/(format-date-time|format-size)\.ts|components\/(previews\/lazy-previews|home-support-actions)\.tsx|i18n\/download-namespace-files\.ts|config\/company\.ts)$/;
/**
 * Small modules nearly every screen's code imports, the download page's included: the English
 * texts of the domain's problems, the map from error codes to i18n keys, the id patterns of links
 * and the domain's formatting helpers. One `shared` chunk (3.2 KiB gzip) rather than four files
 * of under 2 KiB each: the download page loads the same bytes in three requests fewer, home too.
 */
export const FIRST_SCREEN_SHARED_MODULES =
  /\/(functions\/domain\/(texts|format|id-patterns|ui-timings|units)|frontend\/src\/i18n\/error-keys)\.ts$/;
/** index.html's module and main.tsx: they stay the entry chunk, which imports the four above. */
const ENTRY_MODULES = /\/frontend\/(index\.html|src\/main\.tsx)$/;
export const DEFAULT_API_ORIGIN = 'http://127.0.0.1:3001';

export interface WebConfigOptions {
  readonly port: number;
  /** origin of the local gateway that serves `/api` (scripts/dev) */
  readonly apiOrigin: string;
  /** the local stack's origin secret, sent to `/api` as CloudFront sends its own (scripts/local/edge.ts) */
  readonly originSecret?: string;
}

/**
 * Built app only: a small script, loaded `async` from index.html, that starts fetching the
 * lazy route chunks (and their CSS) of the screen the address shows, in parallel with the
 * entry chunk, instead of after the entry has run and the router asked for them. An external
 * file because the app's Content-Security-Policy allows no inline script.
 */
function routePreload(): Plugin {
  return {
    name: 'sendbridge:route-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const entry = chunks.find((c) => c.isEntry);
        const html = bundle['index.html'];
        if (!entry || !html || html.type !== 'asset') return;
        const closure = (start: readonly string[]) => {
          const seen = new Set<string>();
          const visit = (file: string) => {
            if (seen.has(file)) return;
            seen.add(file);
            byFile.get(file)?.imports.forEach(visit);
          };
          start.forEach(visit);
          return seen;
        };
        const loaded = closure([entry.fileName]);
        const table = Object.values(SCREENS).map(({ paths, modules, namespaces }) => {
          // the route's chunks and the English catalogues it waits for (another language's come later)
          const wanted = [
            ...new Set([...modules, ...namespaces.flatMap((ns) => [namespaceLoaderModule(ns), namespaceModule(ns)])]),
          ];
          const roots = wanted.map((m) => chunks.find((c) => c.facadeModuleId === `${frontendRoot}${m}`)?.fileName);
          if (roots.some((r) => r === undefined))
            this.error(`route-preload: a screen module is not a chunk: ${wanted.join(', ')}`);
          const files = [...closure(roots as string[])].filter((f) => !loaded.has(f));
          const css = files.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]);
          // the stylesheets first: the route's render waits for them (Vite's loader inserts them
          // before the chunk runs), and they are few and small
          // every file is under assets/: the table names them without it (0.1 KiB less gzip)
          const listed = [...new Set(css), ...files];
          const outside = listed.find((f) => !f.startsWith('assets/'));
          if (outside !== undefined) this.error(`route-preload: ${outside} is not under assets/`);
          return [paths.source, listed.map((f) => f.slice('assets/'.length))] as const;
        });
        const script = (rows: readonly (readonly [string, readonly string[]])[]) =>
          `(function(){var p=location.pathname,t=${JSON.stringify(rows)};` +
          `for(var i=0;i<t.length;i++)if(new RegExp(t[i][0]).test(p)){t[i][1].forEach(function(f){` +
          `var l=document.createElement('link'),css=/\\.css$/.test(f);l.rel=css?'preload':'modulepreload';if(css)l.as='style';l.crossOrigin='';` +
          `l.href='/assets/'+f;document.head.appendChild(l)});break}})();\n`;
        const ref = this.emitFile({ type: 'asset', name: 'route-preload.js', source: script(table) });
        // A prerendered page knows its screen: its own table only (prerender-plugin.ts), ~0.7 KiB
        // less gzip than the table of every screen.
        for (const [i, screen] of Object.keys(SCREENS).entries())
          this.emitFile({ type: 'asset', name: `route-preload-${screen}.js`, source: script([table[i]!]) });
        const tag = `<script async src="/${this.getFileName(ref)}"></script>`;
        html.source = String(html.source).replace('</title>', `</title>\n    ${tag}`);
      },
    },
  };
}

/**
 * sitemap.xml and robots.txt written beside index.html at build time, from the route
 * table the router uses (src/app/seo-routes.ts) and the public origin (`PUBLIC_ORIGIN`, else
 * `APP_ORIGIN`, from the environment or `.env`; else the local app's address). The dev server
 * answers both addresses with the same text. The origin also reaches the app as the constant
 * `__SENDBRIDGE_PUBLIC_ORIGIN__`, which only lib/seo-head.ts (a lazy chunk) reads, for its
 * canonical and hreflang links.
 */
function seoFiles(port: number): Plugin {
  let origin = '';
  const files = () => ({ '/robots.txt': renderRobots(origin), '/sitemap.xml': renderSitemap(origin) });
  const types: Record<string, string> = {
    '/robots.txt': 'text/plain; charset=utf-8',
    '/sitemap.xml': 'application/xml; charset=utf-8',
  };
  return {
    name: 'sendbridge:seo-files',
    config(_config, { mode }) {
      origin = publicOrigin(loadEnv(mode, repoRoot, ['PUBLIC_ORIGIN', 'APP_ORIGIN']), `http://127.0.0.1:${port}`);
      return { define: { __SENDBRIDGE_PUBLIC_ORIGIN__: JSON.stringify(origin) } };
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const text = (files() as Record<string, string>)[path];
        if (text === undefined) return next();
        res.setHeader('content-type', types[path]!);
        res.end(text);
      });
    },
    generateBundle() {
      for (const [path, source] of Object.entries(files()))
        this.emitFile({ type: 'asset', fileName: path.slice(1), source });
    },
  };
}

/**
 * The domain's rule modules (functions/domain) declare constants, types and pure functions, so
 * a chunk that uses nothing of one of them need not load it. Without this the bundler keeps a
 * bare `import "./chunk.js"` for a module it cannot prove free of side effects: the previews'
 * chunk reached domain/upload.ts (one constant, tree-shaken away) and so fetched the whole
 * quick-send chunk, where upload.ts lives, on the download page. validation.ts configures zod
 * when it loads and keeps its side effects.
 */
export const PURE_DOMAIN_MODULES = /\/functions\/domain\/(?!validation\.ts$)[^/]+\.ts$/;
function pureDomainModules(): Plugin {
  return {
    name: 'sendbridge:pure-domain-modules',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!PURE_DOMAIN_MODULES.test(id)) return null;
      return { code, map: null, moduleSideEffects: false };
    },
  };
}

/** The one Vite config, shared by `vite build`, `npm start` and the e2e tests (dev-server.ts). */
export function webConfig({ port, apiOrigin, originSecret }: WebConfigOptions): UserConfig {
  return {
    root: frontendRoot,
    // `.env` lives at the repo root (architecture §4); only VITE_* names reach the bundle.
    envDir: repoRoot,
    // React's automatic JSX runtime, and Fast Refresh in `npm start` (docs/decisions/, "React 19").
    plugins: [
      react(),
      routePreload(),
      seoFiles(port),
      pureDomainModules(),
      prerenderPages(() => webConfig({ port, apiOrigin })),
    ],
    resolve: {
      alias: [
        { find: /^@domain\//, replacement: `${fileURLToPath(new URL('../functions/domain', import.meta.url))}/` },
        { find: /^@\//, replacement: `${fileURLToPath(new URL('./src', import.meta.url))}/` },
      ],
      dedupe: ['react', 'react-dom'],
    },
    server: {
      host: '127.0.0.1',
      port,
      strictPort: true,
      // The app imports pure rules from functions/domain (conventions 4).
      fs: { allow: [repoRoot] },
      proxy: {
        // One origin, as behind CloudFront, which also writes the viewer headers: the browser's own are dropped.
        '/api': {
          target: apiOrigin,
          changeOrigin: false,
          xfwd: true,
          configure: (proxy) => proxy.on('proxyReq', (proxyReq, req) => playCloudFront(proxyReq, req, originSecret)),
        },
      },
    },
    // Pre-bundle up front so a first visit never triggers a dependency re-optimisation reload.
    optimizeDeps: {
      include: [
        'react',
        'react-dom',
        'react-dom/client',
        'react/jsx-dev-runtime',
        'react-router',
        'i18next',
        'react-i18next',
        'zod',
      ],
    },
    preview: { host: '127.0.0.1', port, strictPort: true },
    build: {
      outDir: fileURLToPath(new URL('./dist', import.meta.url)),
      emptyOutDir: true,
      sourcemap: true,
      manifest: true,
      rollupOptions: {
        output: {
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [
              { name: 'quick-send', test: SEND_FORM_MODULES },
              { name: 'download-shared', test: DOWNLOAD_SHARED_MODULES },
              // the file rules with the expiry and input rules, as before the send form's state left
              // features/send (shared/send-form): apart, file-filters became a chunk of its own
              { name: 'input-rules', test: /\/functions\/domain\/(file-filters|expiry|input-rules)\.ts$/ },
              // What every screen runs before its first render (everything the entry imports) as four
              // files beside the entry, one per library and one of ours: React DOM, react-router,
              // i18next with its React binding, then the app's own shell (layout,
              // session, route table, English core catalogue). Left to itself the bundler makes 17
              // files of it, 16 of them under 3 KiB, each a request before anything paints. One file
              // for all of it scored worse in Lighthouse (docs/decisions/, "First-load files"), and
              // per library a release that changes only our code keeps the libraries' files cached.
              // use-sync-external-store's shim (react-i18next's) goes with React: left to the `app`
              // group it made app and i18n import each other, and the i18n file ran first and failed.
              {
                name: 'react',
                tags: ['$initial'],
                test: /[\\/]node_modules[\\/](react|react-dom|scheduler|use-sync-external-store)[\\/]/,
              },
              { name: 'router', tags: ['$initial'], test: /[\\/]node_modules[\\/]react-router[\\/]/ },
              { name: 'i18n', tags: ['$initial'], test: /[\\/]node_modules[\\/](i18next|react-i18next)[\\/]/ },
              { name: 'app', tags: ['$initial'], test: (id) => !ENTRY_MODULES.test(id) },
              { name: 'shared', test: FIRST_SCREEN_SHARED_MODULES },
            ],
          },
        },
      },
    },
  };
}

function portFromEnv(): number {
  const raw = process.env.WEB_PORT;
  if (raw === undefined || raw === '') return DEFAULT_WEB_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`WEB_PORT is not a port: ${raw}`);
  return port;
}

export default defineConfig(() =>
  webConfig({ port: portFromEnv(), apiOrigin: process.env.API_ORIGIN || DEFAULT_API_ORIGIN }),
);
