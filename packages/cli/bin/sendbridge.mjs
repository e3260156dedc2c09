#!/usr/bin/env node
// The `sendbridge` binary: runs the bundled CLI (dist/sendbridge.mjs). In a checkout of the repo
// the bundle is built here on first use (npm may skip install scripts), with the repo's esbuild,
// and built again when a source file it was made from is newer (dist/inputs.json lists them; a
// published package has no sources beside it and skips the check).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = fileURLToPath(new URL('../dist/sendbridge.mjs', import.meta.url));
const here = new URL('../', import.meta.url);

function stale() {
  if (!existsSync(dist)) return true;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(new URL('dist/inputs.json', here), 'utf8'));
  } catch {
    return false;
  }
  const built = statSync(dist).mtimeMs;
  return inputs.some((f) => {
    try {
      return statSync(new URL(f, here)).mtimeMs > built;
    } catch {
      return false;
    }
  });
}

if (stale()) {
  const { buildCli } = await import(pathToFileURL(fileURLToPath(new URL('build.mjs', here))).href);
  await buildCli(dist);
}
const { main } = await import(pathToFileURL(dist).href);
process.exitCode = await main(process.argv.slice(2));
