import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type UserConfig } from 'vite';
import { LANGUAGES, LANGUAGE_TAGS, type Language } from './src/i18n/languages';
import type { PrerenderedPage } from './src/prerender';
import { PRERENDERED_DIR, PRERENDERED_PAGES } from './prerendered-pages';

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
      const shell = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const base = config();
      const server = await createServer({
        ...base,
        configFile: false,
        logLevel: 'warn',
        appType: 'custom',
        server: { ...base.server, middlewareMode: true, hmr: false, watch: null },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderPage } = (await server.ssrLoadModule('/src/prerender.tsx')) as {
          renderPage(pathname: string, language: Language, titleKey: string): Promise<PrerenderedPage>;
        };
        mkdirSync(path.join(outDir, PRERENDERED_DIR), { recursive: true });
        for (const [name, page] of Object.entries(PRERENDERED_PAGES)) {
          for (const language of LANGUAGES) {
            const { html, title } = await renderPage(page.pathname, language, page.titleKey);
            if (/<script\b/i.test(html)) throw new Error(`prerender: ${name} (${language}) renders a <script>, which the CSP would block`);
            writeFileSync(path.join(outDir, PRERENDERED_DIR, `${name}.${language}.html`), fillShell(shell, { html, title, language, page: name }));
          }
        }
      } finally {
        await server.close();
      }
    },
  };
}

/** index.html with the rendered screen in #root, marked with its page and language for main.tsx. */
export function fillShell(shell: string, { html, title, language, page }: { html: string; title: string; language: Language; page: string }): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const filled = shell
    .replace(/<html lang="[^"]*">/, `<html lang="${LANGUAGE_TAGS[language]}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escape(title)}</title>`)
    .replace('<div id="root"></div>', `<div id="root" data-prerendered="${page}:${language}">${html}</div>`);
  if (!filled.includes('data-prerendered=')) throw new Error('prerender: index.html has no empty <div id="root"></div>');
  return filled;
}
