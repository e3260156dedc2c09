import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { NAMESPACE_LOADER_MODULE, namespaceModule, SCREENS, type Screen } from './screen-modules';
import { DEFAULT_API_ORIGIN, DEFAULT_WEB_PORT, webConfig } from './vite.config';

/**
 * What a first visit to a screen downloads, read from the manifest Vite writes
 * (`.vite/manifest.json`): the entry chunk and its static imports, plus the screen's lazy
 * route modules (screen-modules.ts) and their static imports, plus the English catalogues its
 * routes wait for and the loader table that fetches them. Other dynamic imports are left out:
 * they load on a later action (adding files, pressing record, opening the signup modal, another
 * language). JavaScript only, gzip at zlib's default level (6), sizes in KiB (1024 bytes).
 */
export const SCREEN_MODULES: Readonly<Record<Screen, readonly string[]>> = Object.fromEntries(
  Object.entries(SCREENS).map(([screen, { modules, namespaces }]) => [
    screen,
    [...modules, ...(namespaces.length > 0 ? [NAMESPACE_LOADER_MODULE, ...namespaces.map(namespaceModule)] : [])],
  ]),
) as unknown as Record<Screen, readonly string[]>;

export type { Screen };

interface ManifestChunk {
  readonly file: string;
  readonly src?: string;
  readonly isEntry?: boolean;
  readonly isDynamicEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}
export type Manifest = Readonly<Record<string, ManifestChunk>>;

export interface ScreenJs {
  readonly screen: Screen;
  /** gzip bytes of every JavaScript file in the closure */
  readonly gzipBytes: number;
  readonly files: readonly { readonly file: string; readonly gzipBytes: number }[];
}

/**
 * `vite build` of the app with the project's one config, into `outDir` (manifest included),
 * as `npm run build:web` makes it: production mode even when the caller runs with another
 * NODE_ENV (vitest sets 'test', which would otherwise bundle React's development build).
 */
export async function buildWeb(outDir: string): Promise<void> {
  const config = webConfig({ port: DEFAULT_WEB_PORT, apiOrigin: DEFAULT_API_ORIGIN });
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      ...config,
      mode: 'production',
      configFile: false,
      logLevel: 'warn',
      build: { ...config.build, outDir, emptyOutDir: true, manifest: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

export function readManifest(outDir: string): Manifest {
  return JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** The manifest keys a first visit to the screen loads: entry, route modules, static imports. */
export function screenClosure(manifest: Manifest, screen: Screen): string[] {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const roots = [entries[0]![0]];
  for (const src of SCREEN_MODULES[screen]) {
    const chunk = manifest[src];
    // A renamed or no longer lazy screen module must fail loudly, not shrink the sum.
    if (!chunk?.isDynamicEntry) throw new Error(`${src} is not a lazy chunk in the manifest`);
    roots.push(src);
  }
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  roots.forEach(visit);
  return [...seen];
}

export function gzipSize(path: string): number {
  return gzipSync(readFileSync(path)).length;
}

/** Scripts index.html loads beside the entry that the manifest does not list (route-preload). */
export function htmlScripts(outDir: string, manifest: Manifest): string[] {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const listed = new Set(Object.values(manifest).map((c) => c.file));
  return [...html.matchAll(/<script\b[^>]*\bsrc="\/([^"]+\.js)"/g)].map((m) => m[1]!).filter((file) => !listed.has(file));
}

export function screenJs(outDir: string, manifest: Manifest, screen: Screen): ScreenJs {
  const keys = screenClosure(manifest, screen).map((key) => manifest[key]!.file);
  const files = [...new Set([...keys, ...htmlScripts(outDir, manifest)])]
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, gzipBytes: gzipSize(join(outDir, file)) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { screen, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0), files };
}

export function kib(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}
