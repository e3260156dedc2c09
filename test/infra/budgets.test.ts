import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { App, Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_GROUPS, jobs, routes, type HttpMethod, type RouteDef } from '../../functions/routes';
import { STACK_PREFIX } from '../../lib/sendbridge-app';
import { deployedAssembly, synthSendBridge } from './synth';

/**
 * Deterministic budgets of the deployment (conventions 17): CloudFormation resources per stack
 * (the hard limit is 500) and the minified size of every Lambda bundle.
 */
const MAX_STACK_RESOURCES = 400;
const MAX_CORE_RESOURCES_PER_ROUTE = 2.5;
/**
 * Bundle budgets, in bytes as on disk (1 KB = 1,000 bytes, 1 MB = 1,000,000 bytes): per function,
 * the sum of every file in its code asset, index.mjs and every chunk beside it, lazily imported
 * or not (the Stripe SDK's, the rarely used AWS clients'), wherever in the directory it lies.
 * Two kinds of file are counted apart, each against a limit of its own: source maps (`*.map`),
 * which are not code, and the native packages shipped in `node_modules/` (sharp's prebuilt
 * libvips, ~20 MB), which no JavaScript budget can hold; the whole asset, all files included,
 * is held to Lambda's own limit for unzipped code.
 */
const MAX_BUNDLE_BYTES = 1_000_000;
/**
 * 750 KB since the completion routes left the upload routes' function (that one went from 1.00 MB
 * to 883 KB, without mail, events or jobs) and reviews came with a function of their own: 25
 * functions, the median now the 13th (716 KB, the forward-copy job: the AWS SDK's S3, SESv2 and
 * DynamoDB clients, 185 KB of them @smithy/core and @aws-sdk/core, plus mail in 8 languages).
 */
const MEDIAN_BUNDLE_BYTES = 750_000;
/** Lambda's quota for a function's unzipped code (deployment package and layers): 250 MB. */
const LAMBDA_UNZIPPED_CODE_BYTES = 262_144_000;

interface AssetBytes {
  /** every file that is neither a source map nor under node_modules/: what the budgets hold */
  readonly code: number;
  readonly sourceMaps: number;
  readonly nativePackages: number;
  /** every file of the asset */
  readonly total: number;
  readonly files: number;
}

/** Sizes of every file under an asset directory, by kind (see MAX_BUNDLE_BYTES). */
function assetBytes(dir: string): AssetBytes {
  let code = 0;
  let sourceMaps = 0;
  let nativePackages = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = statSync(file).size;
    files++;
    const rel = path.relative(dir, file).split(path.sep);
    if (rel[0] === 'node_modules') nativePackages += bytes;
    else if (entry.name.endsWith('.map')) sourceMaps += bytes;
    else code += bytes;
  }
  return { code, sourceMaps, nativePackages, total: code + sourceMaps + nativePackages, files };
}

const resourceCount = (stack: Stack, app: App) =>
  Object.keys(app.synth().getStackArtifact(stack.artifactId).template.Resources as Record<string, unknown>).length;

/** A route table of `n` routes spread over every function group, as later issues will grow it. */
function generatedRoutes(n: number): RouteDef[] {
  const dirs = Object.values(FUNCTION_GROUPS).flat();
  const methods: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  return Array.from({ length: n }, (_, i) => ({
    method: methods[i % methods.length]!,
    path: `/generated/r${i}/{id}`,
    handler: `http/${dirs[i % dirs.length]}/generated-${i}`,
    auth: i % 2 ? 'jwt' : 'none',
    access: ['table:read', 'table:write', ...(i % 3 ? (['buckets:read'] as const) : [])],
  }));
}

describe('CloudFormation resources', () => {
  it(`keeps every stack under ${MAX_STACK_RESOURCES} resources and the core stack at most ${MAX_CORE_RESOURCES_PER_ROUTE} per route`, () => {
    const t = synthSendBridge();
    for (const stack of [...t.storage.values(), t.core, t.web]) {
      expect(resourceCount(stack, t.app), stack.stackName).toBeLessThan(MAX_STACK_RESOURCES);
    }
    const perRoute = resourceCount(t.core, t.app) / routes.length;
    expect(perRoute, `core: ${resourceCount(t.core, t.app)} resources for ${routes.length} routes`).toBeLessThanOrEqual(
      MAX_CORE_RESOURCES_PER_ROUTE,
    );
  });

  it(`keeps every stack under ${MAX_STACK_RESOURCES} resources with a route table of 200 routes`, () => {
    const table = generatedRoutes(200);
    const t = synthSendBridge({}, { routes: table });
    const core = resourceCount(t.core, t.app);
    expect(core, `core with ${table.length} routes`).toBeLessThan(MAX_STACK_RESOURCES);
    // Each added route costs its API route only: the functions, roles, logs and permissions stay per group.
    expect(core - resourceCount(synthSendBridge().core, synthSendBridge().app)).toBe(table.length - routes.length);
    for (const stack of [...t.storage.values(), t.web])
      expect(resourceCount(stack, t.app), stack.stackName).toBeLessThan(MAX_STACK_RESOURCES);
  });
});

describe('Lambda bundles', () => {
  let sizes: Record<string, AssetBytes>;

  beforeAll(() => {
    // The assembly global-setup.ts synthesized as `cdk synth` does, bundling included; sizes read from its assets.
    const assembly = deployedAssembly();
    const resourcesOfStack = (id: string) => Object.entries(assembly.stacks.get(id)!.template.Resources);
    // The tenant job lives in the WebStack (its other Lambda is CDK's BucketDeployment handler).
    const resources = [
      ...resourcesOfStack(`${STACK_PREFIX}-Core`),
      ...resourcesOfStack(`${STACK_PREFIX}-Web`).filter(([id]) => id.startsWith('Job')),
    ];
    sizes = {};
    for (const [id, r] of resources) {
      if (r.Type !== 'AWS::Lambda::Function') continue;
      const asset = r.Metadata?.['aws:asset:path'];
      if (!asset) throw new Error(`${id} has no code asset`);
      sizes[id] = assetBytes(path.join(assembly.directory, asset));
    }
  });

  /** One line per function, largest code first: what a failure prints. */
  const report = () =>
    Object.entries(sizes)
      .sort(([, a], [, b]) => b.code - a.code)
      .map(
        ([id, s]) =>
          `${id}: ${s.code} B code (+ ${s.sourceMaps} B source maps, ${s.nativePackages} B native packages; ${s.files} files in all)`,
      )
      .join('\n');

  it('has one bundle per function, each with its entry', () => {
    expect(Object.keys(sizes).length).toBe(Object.keys(FUNCTION_GROUPS).length + jobs.length);
    for (const [id, s] of Object.entries(sizes)) expect(s.code, `${id} has no code`).toBeGreaterThan(0);
  });

  it(`keeps every function's code (all files of its asset) at most ${MAX_BUNDLE_BYTES / 1_000_000} MB and the median at most ${MEDIAN_BUNDLE_BYTES / 1000} KB`, () => {
    const over = Object.entries(sizes)
      .filter(([, s]) => s.code > MAX_BUNDLE_BYTES)
      .map(([id]) => id);
    expect(over, `over ${MAX_BUNDLE_BYTES} bytes:\n${report()}`).toEqual([]);
    const median = medianOf(Object.values(sizes).map((s) => s.code));
    expect(median, `median ${median} bytes:\n${report()}`).toBeLessThanOrEqual(MEDIAN_BUNDLE_BYTES);
  });

  it("keeps every function's whole asset (maps and native packages included) within Lambda's unzipped code limit", () => {
    for (const [id, s] of Object.entries(sizes))
      expect(s.total, `${id}\n${report()}`).toBeLessThanOrEqual(LAMBDA_UNZIPPED_CODE_BYTES);
  });
});

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
