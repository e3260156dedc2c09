import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import {
  functionsOf,
  jobs,
  routeKeyOf,
  routes,
  type FunctionDef,
  type JobDef,
  type RouteDef,
} from '../functions/routes';
import { REPO_ROOT } from './paths';
import { filterSourceMap, type SourceMapV3 } from './source-map-filter';

/**
 * The Lambda bundles of the app, built by one esbuild run for all functions (not one
 * NodejsFunction bundling per function): a grouped HTTP function's entry is generated from the
 * route table and dispatches by route key (functions/lib/dispatch.ts). Jobs re-export their
 * module's handler.
 *
 * Bundles are ESM for nodejs24.x (Node 22 syntax: the bench runs them on the local Node 20 too), minified, with linked source maps (no sources content) of our
 * own code only: mappings into node_modules are dropped (docs/decisions/, "Lambda source maps
 * map our code only"), which cuts the map `--enable-source-maps` parses at cold start ~7x.
 * The AWS SDK v3 clients functions/ use (functions/lib/clients/) are bundled in, not taken from
 * the Lambda runtime; clients few routes need are imported on demand, which esbuild keeps in
 * the same file but runs on first use (docs/decisions/, "The AWS SDK v3 in functions/";
 * test/infra/bundle-contents.test.ts checks which run with the entry; test/infra/budgets.test.ts
 * counts every file of an asset). Numbers: docs/benchmarks.md.
 */

export const LAMBDA_BUNDLE_FILE = 'index.mjs';
export const LAMBDA_HANDLER = 'index.handler';

export interface LambdaBundle {
  /** directory holding index.mjs (+ its source map): the function's code asset */
  readonly dir: string;
  /** minified bytes of index.mjs */
  readonly bytes: number;
  /**
   * the source files bundled into index.mjs whose code runs when it is imported (esbuild
   * metafile paths, relative to the repository)
   */
  readonly inputs: readonly string[];
  /**
   * the source files bundled into index.mjs that only a dynamic `import()` reaches: esbuild
   * wraps them to run on their first import (the AWS clients few routes use)
   */
  readonly lazyInputs: readonly string[];
  /** files beside index.mjs that it imports only on demand (the Stripe SDK chunk), with their minified bytes */
  readonly chunks: readonly { readonly file: string; readonly bytes: number }[];
  /** native packages shipped in `node_modules/` beside index.mjs (NATIVE_PACKAGES), by name */
  readonly nativePackages: readonly string[];
}

/**
 * Packages with a native binary that esbuild cannot bundle. They stay external in
 * every bundle; a bundle whose code imports one gets it copied, with the packages it needs, into
 * `node_modules/` beside index.mjs from the repository's installed tree (no download, no Docker:
 * synth stays offline). Per package, the installed packages that must be there: the prebuilt
 * linux-x64 (glibc) binary the Lambda runs, so its function is x86_64 (routes.ts `architecture`).
 * On another machine, `npm install --os=linux --cpu=x64 --libc=glibc sharp` adds them.
 */
export const NATIVE_PACKAGES: Readonly<Record<string, { readonly required: readonly string[] }>> = {
  sharp: { required: ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64'] },
};
/** The platform the shipped native packages are for (Lambda x86_64 on Amazon Linux: glibc). */
const LAMBDA_NATIVE_PLATFORM = { os: 'linux', cpu: 'x64', libc: 'glibc' } as const;

/**
 * The Stripe SDK (~246 KB minified) is not bundled into index.mjs: the Stripe provider imports
 * it on first use from this file beside index.mjs, written into every bundle that holds the
 * provider, so a function of a simulated deployment never loads it (docs/decisions/,
 * "Payments providers").
 */
export const STRIPE_SDK_CHUNK_FILE = 'stripe-sdk.mjs';
export const STRIPE_PROVIDER_MODULE = 'functions/adapters/payments/stripe.ts';

export interface BundleSpec {
  readonly name: string;
  /** TypeScript source of the entry module; imports are absolute paths */
  readonly source: string;
}

const functionsFile = (modulePath: string) => JSON.stringify(path.join(REPO_ROOT, 'functions', modulePath));

/**
 * The generated entry of a grouped HTTP function: its route modules imported statically and
 * handed to the dispatcher by route key. Static, not `import()`: esbuild tree-shakes static
 * imports across the whole group but keeps everything a lazily imported module exports, and
 * its lazy module wrappers compile twice; measured, the static entries are 10-26 % smaller
 * and start faster (docs/benchmarks.md, cold-init).
 */
export function routeFunctionEntry(fn: Pick<FunctionDef, 'routes'>): string {
  const imports = fn.routes.map((r, i) => `import * as route${i} from ${functionsFile(r.handler)};`);
  const loaders = fn.routes.map((r, i) => `  ${JSON.stringify(routeKeyOf(r))}: async () => route${i},`);
  return [
    `import { createDispatcher } from ${functionsFile('lib/dispatch')};`,
    ...imports,
    `export const handler = createDispatcher({`,
    ...loaders,
    `});`,
    '',
  ].join('\n');
}

export function jobEntry(job: Pick<JobDef, 'handler'>): string {
  return `export { handler } from ${functionsFile(job.handler)};\n`;
}

/** Every bundle of the app: `api-<group>` per function group, `job-<name>` per job. */
export function lambdaBundleSpecs(
  table: readonly RouteDef[] = routes,
  jobDefs: readonly JobDef[] = jobs,
): BundleSpec[] {
  return [
    ...functionsOf(table).map((fn) => ({ name: apiBundleName(fn.name), source: routeFunctionEntry(fn) })),
    ...jobDefs.map((job) => ({ name: jobBundleName(job.name), source: jobEntry(job) })),
  ];
}

export const apiBundleName = (group: string) => `api-${group}`;
export const jobBundleName = (job: string) => `job-${job}`;

export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  // Linked: the map beside the bundle and a sourceMappingURL comment, which --enable-source-maps follows.
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  // UTF-8 as written: esbuild's default escapes every non-ASCII character (6 bytes for one CJK
  // character instead of 3), which doubled the Japanese, Korean and Chinese mail copy in each bundle.
  charset: 'utf8',
  // CommonJS dependencies bundled into ESM still call require().
  banner: {
    js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
  },
  tsconfig: path.join(REPO_ROOT, 'tsconfig.json'),
  logLevel: 'error',
  // functions/adapters/payments/stripe.ts imports the Stripe SDK from this path (see STRIPE_SDK_CHUNK_FILE)
  define: { STRIPE_SDK_CHUNK: JSON.stringify(`./${STRIPE_SDK_CHUNK_FILE}`) },
  // Native packages are shipped beside the bundle, not in it (NATIVE_PACKAGES)
  external: Object.keys(NATIVE_PACKAGES),
  // Lambda's credentials are always in the environment (functions/lib/clients/lambda-credentials.ts)
  alias: {
    '@aws-sdk/credential-provider-node': path.join(REPO_ROOT, 'functions', 'lib', 'clients', 'lambda-credentials.ts'),
  },
} as const satisfies esbuild.BuildOptions;

/** Where bundles are built: a cache beside the dependencies, never committed. */
export const BUNDLE_CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'sendbridge-lambda');

const built = new Map<string, ReadonlyMap<string, LambdaBundle>>();

/** What a finished build leaves beside its bundles, to be reused by a later process. */
interface BuildManifest {
  readonly version: 1;
  /** every file the build read (esbuild metafile inputs), repository-relative, with its sha256 */
  readonly inputs: Readonly<Record<string, string>>;
  /** the bundles, with `dir` relative to the build root */
  readonly bundles: readonly (Omit<LambdaBundle, 'dir'> & { readonly name: string; readonly dir: string })[];
}
const MANIFEST_FILE = 'build.json';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * What can change a build without changing any file it read: the entries, the options, the
 * installed packages (the lockfile), the compiler settings and which files functions/ holds (a
 * new file can change how an import resolves).
 */
function buildKey(specs: readonly BundleSpec[], outRoot: string): string {
  const read = (file: string) => (existsSync(file) ? readFileSync(file) : '');
  const functionsFiles = (readdirSync(path.join(REPO_ROOT, 'functions'), { recursive: true }) as string[]).sort();
  return createHash('sha256')
    .update(JSON.stringify({ specs, options: ESBUILD_OPTIONS, outRoot, functionsFiles }))
    .update(sha256(read(path.join(REPO_ROOT, 'package-lock.json'))))
    .update(sha256(read(path.join(REPO_ROOT, 'tsconfig.json'))))
    .digest('hex')
    .slice(0, 16);
}

/** The bundles of an earlier build under `root`, if every file it read is unchanged and its outputs are there. */
function reuseBuild(root: string): ReadonlyMap<string, LambdaBundle> | undefined {
  let manifest: BuildManifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(root, MANIFEST_FILE), 'utf8')) as BuildManifest;
  } catch {
    return undefined;
  }
  if (manifest.version !== 1) return undefined;
  for (const [file, hash] of Object.entries(manifest.inputs)) {
    const abs = path.join(REPO_ROOT, file);
    if (!existsSync(abs) || sha256(readFileSync(abs)) !== hash) return undefined;
  }
  const result = new Map<string, LambdaBundle>();
  for (const { name, dir, ...bundle } of manifest.bundles) {
    const abs = path.join(root, dir);
    const file = path.join(abs, LAMBDA_BUNDLE_FILE);
    if (!existsSync(file) || statSync(file).size !== bundle.bytes) return undefined;
    result.set(name, { ...bundle, dir: abs });
  }
  return result;
}

/**
 * Bundles every spec in one esbuild run (synchronous: CDK constructs are). Cached per process
 * by the entries and the bundler options, so the several synths of one test run build once, and
 * on disk: a later synth reuses the last build when every file that build read has the same
 * content (sha256), so only a change to functions/ or the dependencies pays for esbuild again.
 */
export function buildLambdaBundles(
  specs: readonly BundleSpec[],
  outRoot = BUNDLE_CACHE_DIR,
): ReadonlyMap<string, LambdaBundle> {
  const key = buildKey(specs, outRoot);
  const cached = built.get(key);
  if (cached) return cached;

  const root = path.join(outRoot, key);
  const reused = reuseBuild(root);
  if (reused) {
    built.set(key, reused);
    return reused;
  }
  // Built beside the final directory and renamed into place, so a concurrent synth (a test
  // run and `cdk synth`) never reads a half-written build; the relative paths in the source
  // maps are the same from both.
  const staging = `${root}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const { bundles, inputs } = runBuild(specs, staging);
  const manifest: BuildManifest = {
    version: 1,
    inputs,
    bundles: [...bundles].map(([name, b]) => ({ ...b, name, dir: path.relative(staging, b.dir) })),
  };
  writeFileSync(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest));
  rmSync(root, { recursive: true, force: true });
  try {
    renameSync(staging, root);
  } catch (e) {
    // Another process put the same build in place first: use its copy.
    rmSync(staging, { recursive: true, force: true });
    const theirs = reuseBuild(root);
    if (!theirs) throw e;
    built.set(key, theirs);
    return theirs;
  }
  const placed = (b: LambdaBundle) => ({ ...b, dir: path.join(root, path.relative(staging, b.dir)) });
  const result = new Map([...bundles].map(([name, b]) => [name, placed(b)]));
  built.set(key, result);
  return result;
}

/** The esbuild run itself, into `root`: the bundles and the sha256 of every file it read. */
function runBuild(
  specs: readonly BundleSpec[],
  root: string,
): { bundles: ReadonlyMap<string, LambdaBundle>; inputs: Record<string, string> } {
  const entriesDir = path.join(root, 'entries');
  const outDir = path.join(root, 'out');
  mkdirSync(entriesDir, { recursive: true });
  const entryPoints: Record<string, string> = {};
  for (const spec of specs) {
    if (!/^[a-z0-9-]+$/.test(spec.name)) throw new Error(`bundle name ${spec.name} must be kebab-case`);
    const file = path.join(entriesDir, `${spec.name}.ts`);
    writeFileSync(file, spec.source);
    entryPoints[`${spec.name}/index`] = file;
  }
  // No code splitting: with one run over every function, esbuild tree-shakes shared chunks for
  // all entries at once, which made each function's asset 30-100 % larger (docs/decisions/).
  const { metafile } = esbuild.buildSync({
    ...ESBUILD_OPTIONS,
    entryPoints,
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
  });
  const cwdPath = (file: string) => path.relative(process.cwd(), file).split(path.sep).join('/');
  const repoPath = (p: string) => path.relative(REPO_ROOT, path.resolve(process.cwd(), p)).split(path.sep).join('/');
  const inputs: Record<string, string> = {};
  const fingerprint = (meta: esbuild.Metafile) => {
    for (const input of Object.keys(meta.inputs)) {
      const abs = path.resolve(process.cwd(), input);
      // The generated entries live in the build itself; esbuild's virtual inputs are no files.
      if (abs.startsWith(root + path.sep) || !existsSync(abs)) continue;
      inputs[repoPath(input)] = sha256(readFileSync(abs));
    }
  };
  fingerprint(metafile);

  const result = new Map<string, LambdaBundle>();
  let stripeChunk: string | undefined;
  for (const spec of specs) {
    const dir = path.join(outDir, spec.name);
    const file = path.join(dir, LAMBDA_BUNDLE_FILE);
    const output = metafile.outputs[cwdPath(file)];
    const bundled = Object.keys(output?.inputs ?? {});
    const eager = staticClosure(metafile, cwdPath(path.join(entriesDir, `${spec.name}.ts`)));
    const inputsOfBundle = bundled.filter((i) => eager.has(i)).map(repoPath);
    const lazyInputs = bundled.filter((i) => !eager.has(i)).map(repoPath);
    const chunks: { file: string; bytes: number }[] = [];
    if (inputsOfBundle.includes(STRIPE_PROVIDER_MODULE) || lazyInputs.includes(STRIPE_PROVIDER_MODULE)) {
      if (!stripeChunk) {
        const vendor = buildStripeChunk(path.join(root, 'vendor'));
        fingerprint(vendor.metafile);
        stripeChunk = vendor.file;
      }
      copyFileSync(stripeChunk, path.join(dir, STRIPE_SDK_CHUNK_FILE));
      chunks.push({ file: STRIPE_SDK_CHUNK_FILE, bytes: statSync(stripeChunk).size });
    }
    narrowSourceMap(`${file}.map`);
    const natives = [
      ...new Set(
        (output?.imports ?? []).filter((i) => i.external && Object.hasOwn(NATIVE_PACKAGES, i.path)).map((i) => i.path),
      ),
    ];
    for (const name of natives) {
      for (const copied of copyNativePackage(name, path.join(dir, 'node_modules'))) {
        // A reinstalled native package (another binary version) must rebuild the asset.
        const manifestFile = path.join(REPO_ROOT, 'node_modules', copied, 'package.json');
        inputs[`node_modules/${copied}/package.json`] = sha256(readFileSync(manifestFile));
      }
    }
    const bytes = statSync(file).size;
    result.set(spec.name, { dir, bytes, inputs: inputsOfBundle, lazyInputs, chunks, nativePackages: natives });
  }
  return { bundles: result, inputs };
}

/** Keeps the mappings into our own sources only (sources outside node_modules). */
export const mapsOurCode = (source: string) => !source.split(/[\\/]/).includes('node_modules');

function narrowSourceMap(mapFile: string): void {
  if (!existsSync(mapFile)) return;
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapV3;
  writeFileSync(mapFile, JSON.stringify(filterSourceMap(map, mapsOurCode)));
}

interface PackageJson {
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
  readonly libc?: readonly string[];
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Whether an installed package runs on the Lambda (no os / cpu / libc field, or ones naming it). */
function runsOnLambda(pkg: PackageJson): boolean {
  const fits = (list: readonly string[] | undefined, value: string) => !list || list.includes(value);
  return (
    fits(pkg.os, LAMBDA_NATIVE_PLATFORM.os) &&
    fits(pkg.cpu, LAMBDA_NATIVE_PLATFORM.cpu) &&
    fits(pkg.libc, LAMBDA_NATIVE_PLATFORM.libc)
  );
}

/**
 * Copies an installed native package and what it needs (its dependencies, and those of its
 * optional dependencies that are installed and run on the Lambda) into `target`. Throws,
 * naming the missing package, when the binary the Lambda needs is not installed here.
 */
export function copyNativePackage(name: string, target: string, root = path.join(REPO_ROOT, 'node_modules')): string[] {
  const missing = (NATIVE_PACKAGES[name]?.required ?? []).filter(
    (req) => !existsSync(path.join(root, req, 'package.json')),
  );
  if (missing.length > 0) {
    throw new Error(
      `${name} is shipped to Lambda with its linux-x64 binary, but ${missing.join(', ')} is not installed in node_modules: ` +
        `run \`npm install --os=linux --cpu=x64 --libc=glibc ${name}\` (adds the prebuilt package, keeps yours)`,
    );
  }
  const copied: string[] = [];
  const queue = [name];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (copied.includes(next)) continue;
    const from = path.join(root, next);
    const pkg = readPackage(from);
    copied.push(next);
    cpSync(from, path.join(target, next), { recursive: true, dereference: true });
    queue.push(...Object.keys(pkg.dependencies ?? {}));
    for (const optional of Object.keys(pkg.optionalDependencies ?? {})) {
      const dir = path.join(root, optional);
      if (existsSync(path.join(dir, 'package.json')) && runsOnLambda(readPackage(dir))) queue.push(optional);
    }
  }
  return copied;
}

/**
 * The inputs (metafile keys) whose code runs when an entry is imported: the entry and what it
 * imports statically (import statements, require calls), transitively. What only a dynamic
 * import() reaches is left out: esbuild runs it on its first import.
 */
function staticClosure(metafile: esbuild.Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next) || !metafile.inputs[next]) continue;
    seen.add(next);
    for (const i of metafile.inputs[next].imports) if (!i.external && i.kind !== 'dynamic-import') queue.push(i.path);
  }
  return seen;
}

/** The Stripe SDK as one ESM file (same options as the functions, no source map: it is not our code). */
function buildStripeChunk(dir: string): { file: string; metafile: esbuild.Metafile } {
  const outfile = path.join(dir, STRIPE_SDK_CHUNK_FILE);
  const { metafile } = esbuild.buildSync({
    ...ESBUILD_OPTIONS,
    sourcemap: false,
    stdin: { contents: "export { default } from 'stripe';\n", resolveDir: REPO_ROOT, loader: 'ts' },
    outfile,
    metafile: true,
  });
  return { file: outfile, metafile };
}

/** Stand-in code for stacks synthesized without bundling (`aws:cdk:bundling-stacks`), as NodejsFunction does. */
export function unbundledDir(): string {
  const dir = path.join(BUNDLE_CACHE_DIR, 'unbundled');
  const file = path.join(dir, LAMBDA_BUNDLE_FILE);
  mkdirSync(dir, { recursive: true });
  const text =
    '// Bundling was skipped for this synth (aws:cdk:bundling-stacks); `cdk synth` builds the real bundle.\nexport const handler = async () => { throw new Error("unbundled"); };\n';
  try {
    if (readFileSync(file, 'utf8') === text) return dir;
  } catch {
    // first use
  }
  writeFileSync(file, text);
  return dir;
}
