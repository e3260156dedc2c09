/**
 * The e2e project's one production build of the app: `vite build` with the project's config, as
 * `npm run build:web` makes it, reused across runs while the sources it is made from are the same.
 * The key is a hash of frontend/, functions/ (the app imports the domain and route modules),
 * package-lock.json and tsconfig.json; a changed file means a new build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildWeb } from '../../frontend/web-bundle';
import { REPO_ROOT } from '../../scripts/local/app';

const CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'sendbridge-web');
const SOURCES = ['frontend', 'functions', 'package-lock.json', 'tsconfig.json'];

/** A hash of every file the build reads, by path and content. */
export function webSourcesHash(root = REPO_ROOT): string {
  const hash = createHash('sha256');
  const add = (rel: string) => {
    const full = path.join(root, rel);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) add(path.join(rel, name));
      return;
    }
    hash.update(`${rel}\0`);
    hash.update(readFileSync(full));
    hash.update('\0');
  };
  SOURCES.forEach(add);
  return hash.digest('hex').slice(0, 16);
}

/** The build's directory: the cached one for these sources, or a new build put there first. */
export async function ensureWebBuild(): Promise<string> {
  const key = webSourcesHash();
  const dir = path.join(CACHE_DIR, key);
  if (existsSync(path.join(dir, '.vite', 'manifest.json'))) return dir;
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = path.join(CACHE_DIR, `${key}.partial-${process.pid}`);
  await buildWeb(partial);
  // Older builds go: the cache holds the build of the sources as they are now.
  for (const name of readdirSync(CACHE_DIR)) {
    if (name !== path.basename(partial)) rmSync(path.join(CACHE_DIR, name), { recursive: true, force: true });
  }
  // A rename is atomic: another run never reads half a build.
  renameSync(partial, dir);
  return dir;
}
