import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type UserConfig } from 'vite';
import { LANGUAGES, LANGUAGE_TAGS, type Language } from './src/i18n/languages';
import type { PrerenderedPage } from './src/prerender';
import { PRERENDERED_DIR, PRERENDERED_PAGES } from './prerendered-pages';
import { SCREENS, type Screen } from './screen-modules';

/**
 * Built app only: the public pages of PRERENDERED_PAGES rendered to HTML once per language with
 * react-dom (src/prerender.tsx, loaded through a Vite server in SSR mode with the app's own
 * config), written as `prerendered/<page>.<lang>.html`: index.html with the screen inside
 * #root, its title and `<html lang>`. CloudFront's viewer-request function and the local
 * built-app server send one of them for the page's address by Accept-Language
 * (prerendered-pages.ts), so the first paint needs no JavaScript; main.tsx hydrates it.
 */
export function prerenderPages(config: () => UserConfig): Plugin {
  let outDir = '';
  return {
    name: 'sendbridge:prerender',
    apply: 'build',
    configResolved(resolved) {
      outDir = resolved.build.outDir;
    },
    async writeBundle() {
      const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
      const indexHtml = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const assets = readdirSync(path.join(outDir, 'assets'));
      /** The page's HTML frame with a boot module of its screen's (its own route-preload table). */
      const shells = new Map<Screen, string>();
      const shellOf = (screen: Screen) => {
        const known = shells.get(screen);
        if (known !== undefined) return known;
        const own = assets.filter((f) => f.startsWith(`route-preload-${screen}-`) && f.endsWith('.js'));
        if (own.length !== 1) throw new Error(`prerender: ${own.length} route-preload files of ${screen}`);
        const { html, boot } = bootAfterPaint(indexHtml, `/assets/${own[0]}`);
        writeFileSync(path.join(outDir, boot.file), boot.source);
        shells.set(screen, html);
        return html;
      };
      const base = config();
      const server = await createServer({
        ...base,
        configFile: false,
        logLevel: 'warn',
        appType: 'custom',
        // no HMR, no WebSocket (its port may be taken by a running `npm start`), no watcher
        server: { ...base.server, middlewareMode: true, hmr: false, ws: false, watch: null },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderPage, renderShell } = (await server.ssrLoadModule('/src/prerender.tsx')) as {
          renderPage(pathname: string, language: Language, titleKey: string): Promise<PrerenderedPage>;
          renderShell(language: Language): Promise<PrerenderedPage>;
        };
        mkdirSync(path.join(outDir, PRERENDERED_DIR), { recursive: true });
        for (const [name, page] of Object.entries(PRERENDERED_PAGES)) {
          for (const language of LANGUAGES) {
            const { html, title } =
              page.kind === 'page'
                ? await renderPage(page.pathname, language, page.titleKey)
                : await renderShell(language);
            if (/<script\b/i.test(html))
              throw new Error(`prerender: ${name} (${language}) renders a <script>, which the CSP would block`);
            const styles = page.kind === 'page' ? screenStyles(manifest, page.screen) : [];
            const withStyles = shellOf(page.screen).replace(/(<link rel="stylesheet"[^>]*>)/, (link) =>
              [link, ...styles.map((href) => `<link rel="stylesheet" crossorigin href="/${href}">`)].join('\n    '),
            );
            writeFileSync(
              path.join(outDir, PRERENDERED_DIR, `${name}.${language}.html`),
              fillShell(withStyles, { html, title, language, page: name, hydrate: page.kind === 'page' }),
            );
          }
        }
      } finally {
        await server.close();
      }
    },
  };
}

type Manifest = Record<
  string,
  {
    readonly file: string;
    readonly isEntry?: boolean;
    readonly imports?: readonly string[];
    readonly css?: readonly string[];
  }
>;

/** The stylesheets of a screen's route modules and their static imports that the entry does not already link. */
function screenStyles(manifest: Manifest, screen: Screen): string[] {
  const closure = (roots: readonly string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      manifest[key]!.imports?.forEach(visit);
    };
    roots.forEach(visit);
    return [...seen].flatMap((key) => manifest[key]!.css ?? []);
  };
  const entry = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const linked = new Set(closure(entry));
  const modules = SCREENS[screen].modules as readonly string[];
  if (modules.some((m) => !manifest[m])) throw new Error(`prerender: a module of ${screen} is not in the manifest`);
  return [...new Set(closure(modules))].filter((css) => !linked.has(css));
}

/**
 * A prerendered page is worth seeing before the app's JavaScript runs, so its HTML starts the
 * app only after the first paint: index.html's entry script, its modulepreload links and the
 * route-preload script are taken out and a small module (`assets/boot-<hash>.js`, external:
 * the CSP allows no inline script) asks for them once a frame has been painted. Without this,
 * on a fast connection the browser fetched and ran the whole entry (React, the router,
 * i18next) before painting the HTML it already had.
 */
export function bootAfterPaint(
  indexHtml: string,
  routePreload?: string,
): { html: string; boot: { file: string; source: string } } {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(indexHtml);
  const route = /<script async src="([^"]+route-preload[^"]+)"><\/script>\s*/.exec(indexHtml);
  if (!entry || !route) throw new Error('prerender: index.html has no entry module or route-preload script');
  const preloads = [...indexHtml.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
  const source =
    // files picked before the app has hydrated: main.tsx replays their change events
    `const early=window.sendbridgeEarlyChanges=[];document.addEventListener('change',(e)=>{if(e.target instanceof HTMLInputElement&&e.target.type==='file')early.push(e.target)},true);\n` +
    `const preload=${JSON.stringify(preloads.map((m) => m[1]))};\n` +
    `const start=()=>{for(const href of preload){const l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=href;document.head.appendChild(l)}` +
    `const s=document.createElement('script');s.async=true;s.src=${JSON.stringify(routePreload ?? route[1])};document.head.appendChild(s);import(${JSON.stringify(entry[1])})};\n` +
    // a hidden tab paints no frame: start at once there
    `if(document.visibilityState==='hidden')start();else requestAnimationFrame(()=>setTimeout(start));\n`;
  const file = `assets/boot-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js`;
  let html = indexHtml.replace(entry[0], '').replace(route[0], '');
  for (const m of preloads) html = html.replace(m[0], '');
  html = html.replace('</title>', `</title>\n    <script type="module" src="/${file}"></script>`);
  return { html, boot: { file, source } };
}

/** index.html with the rendered screen in #root, marked with its page and language for main.tsx (and `data-shell` when it is only a frame). */
export function fillShell(
  shell: string,
  {
    html,
    title,
    language,
    page,
    hydrate,
  }: { html: string; title: string; language: Language; page: string; hydrate: boolean },
): string {
  const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const filled = shell
    .replace(/<html lang="[^"]*">/, `<html lang="${LANGUAGE_TAGS[language]}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title || 'SendBridge')}</title>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root" data-prerendered="${page}:${language}"${hydrate ? '' : ' data-shell=""'} inert>${html}</div>`,
    );
  if (!filled.includes('data-prerendered='))
    throw new Error('prerender: index.html has no empty <div id="root"></div>');
  return filled;
}
