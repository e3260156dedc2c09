#!/usr/bin/env node
// The `sendbridge` binary: runs the bundled CLI (dist/sendbridge.mjs). In a fresh clone of the
// repo the bundle is built here on first use (npm may skip install scripts), with the repo's esbuild.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = fileURLToPath(new URL('../dist/sendbridge.mjs', import.meta.url));
if (!existsSync(dist)) {
  const { buildCli } = await import(pathToFileURL(fileURLToPath(new URL('../build.mjs', import.meta.url))).href);
  await buildCli(dist);
}
const { main } = await import(pathToFileURL(dist).href);
process.exitCode = await main(process.argv.slice(2));
