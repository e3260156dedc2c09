// Builds the CLI into one ES module, dist/sendbridge.mjs (everything bundled: the browser's
// upload engine, the domain rules, zod). `npm run build -w sendbridge`; bin/sendbridge.mjs
// also runs this on first use when dist is missing (a fresh `npm ci`).
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

export async function buildCli(outfile = path.join(here, 'dist', 'sendbridge.mjs')) {
  const result = await build({
    metafile: true,
    absWorkingDir: root,
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
    // CommonJS dependencies (yauzl) require Node's built-ins: an ES module has no `require` of its own.
    banner: {
      js: "// SendBridge CLI (built by packages/cli/build.mjs)\nimport { createRequire as __cliRequire } from 'node:module';\nconst require = __cliRequire(import.meta.url);",
    },
  });
  // The repo's source files in the bundle, so bin/sendbridge.mjs can rebuild a bundle older than
  // any of them (a `git pull` in a checkout); paths relative to this folder.
  const inputs = Object.keys(result.metafile.inputs)
    .filter((f) => !f.includes('node_modules/'))
    .map((f) => path.relative(here, path.resolve(root, f)));
  writeFileSync(path.join(path.dirname(outfile), 'inputs.json'), `${JSON.stringify(inputs)}\n`);
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildCli();
  console.log(`built ${path.relative(process.cwd(), out)}`);
}
