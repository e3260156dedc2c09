import * as esbuild from 'esbuild';
import { ESBUILD_OPTIONS, lambdaBundleSpecs } from './lib/lambda-bundles';
import { writeFileSync, mkdirSync } from 'node:fs';
const which = process.argv[2] ?? 'api-transfers';
const spec = lambdaBundleSpecs().find((s) => s.name === which)!;
mkdirSync('/tmp/sdk-an', { recursive: true });
writeFileSync('/tmp/sdk-an/entry.ts', spec.source);
const r = esbuild.buildSync({ ...ESBUILD_OPTIONS, entryPoints: ['/tmp/sdk-an/entry.ts'], outfile: '/tmp/sdk-an/out.mjs', metafile: true, sourcemap: false });
const out = Object.values(r.metafile.outputs)[0]!;
const by = new Map<string, number>();
for (const [p, v] of Object.entries(out.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p);
  const k = m ? m[1]! : p.startsWith('functions') ? 'functions/' + p.split('/')[1] : 'other';
  by.set(k, (by.get(k) ?? 0) + v.bytesInOutput);
}
console.log(which, Math.round(out.bytes / 1000));
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(Math.round(v / 1000), k);
const pkg = process.argv[3];
if (pkg) for (const [p, v] of Object.entries(out.inputs).filter(([p]) => p.includes(pkg)).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 12)) console.log(Math.round(v.bytesInOutput / 1000), p);
