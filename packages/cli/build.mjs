// Builds the CLI into one ES module, dist/sendbridge.mjs (everything bundled: the browser's
// upload engine, the domain rules, zod). `npm run build -w sendbridge`; bin/sendbridge.mjs
// also runs this on first use when dist is missing (a fresh `npm ci`).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

export async function buildCli(outfile = path.join(here, 'dist', 'sendbridge.mjs')) {
  await build({
    entryPoints: [path.join(here, 'src', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: false,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: path.join(root, 'tsconfig.json'),
    banner: { js: '// SendBridge CLI (built by packages/cli/build.mjs)' },
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildCli();
  console.log(`built ${path.relative(process.cwd(), out)}`);
}
