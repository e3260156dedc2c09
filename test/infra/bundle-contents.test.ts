import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionsOf, jobs, routes, type Access } from '../../functions/routes';
import {
  apiBundleName,
  buildLambdaBundles,
  jobBundleName,
  lambdaBundleSpecs,
  type LambdaBundle,
} from '../../lib/lambda-bundles';
import { REPO_ROOT } from '../../lib/paths';

/**
 * What the Lambda bundles hold, from esbuild's own account of the one build (its metafile, read by
 * lib/lambda-bundles.ts): the sources bundled into each function, split into those whose code runs
 * when the function's index.mjs is imported and those only a dynamic import() reaches, which
 * esbuild wraps to run on their first import.
 *
 * functions/ reach AWS through the AWS SDK v3 clients, not a hand-written layer: DynamoDB, which
 * nearly every request reads, runs with the entry; the clients only a few routes or jobs need run
 * on first use, so no other cold start pays for them.
 */

/** Clients that must never run with a function's entry (few routes or jobs use them). */
const LAZY_CLIENTS = [
  '@aws-sdk/client-cloudfront',
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/client-lambda',
  '@aws-sdk/client-sesv2',
  '@aws-sdk/client-eventbridge',
  '@aws-sdk/client-sqs',
] as const;

/** The clients a function's grants say it talks to (functions/routes.ts Access): its bundle must carry them. */
const CLIENTS_OF_ACCESS: Readonly<Record<Access, readonly string[]>> = {
  'table:read': ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
  'table:write': ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
  'buckets:read': ['@aws-sdk/client-s3'],
  'buckets:write': ['@aws-sdk/client-s3'],
  'buckets:cors': ['@aws-sdk/client-s3'],
  'mail:send': ['@aws-sdk/client-sesv2'],
  'mail:read': ['@aws-sdk/client-sesv2'],
  'mail:identities': ['@aws-sdk/client-sesv2'],
  'userpool:read': ['@aws-sdk/client-cognito-identity-provider'],
  'userpool:admin': ['@aws-sdk/client-cognito-identity-provider'],
  'jobs:invoke': ['@aws-sdk/client-lambda'],
  payments: ['@aws-sdk/client-secrets-manager'],
  'cdn:tenants': ['@aws-sdk/client-cloudfront'],
  'events:publish': ['@aws-sdk/client-eventbridge', '@aws-sdk/client-sqs'],
  receipts: ['@aws-sdk/client-secrets-manager'],
};

const PACKAGE_OF_SOURCE = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//u;
const packagesOf = (sources: readonly string[]) =>
  new Set(sources.flatMap((s) => PACKAGE_OF_SOURCE.exec(s)?.[1] ?? []));

const FUNCTIONS = [
  ...functionsOf(routes).map((fn) => ({ bundle: apiBundleName(fn.name), access: fn.access })),
  ...jobs.map((job) => ({ bundle: jobBundleName(job.name), access: job.access })),
];

describe('Lambda bundle contents', () => {
  let bundles: ReadonlyMap<string, LambdaBundle>;

  beforeAll(() => {
    bundles = buildLambdaBundles(lambdaBundleSpecs());
  }, 120_000);

  it('has a bundle for every function and job', () => {
    expect([...bundles.keys()].sort()).toEqual(FUNCTIONS.map((f) => f.bundle).sort());
  });

  it('carries the AWS SDK v3 client of every service a function is granted, and runs DynamoDB with the entry', () => {
    const missing: string[] = [];
    const dynamoLazy: string[] = [];
    for (const { bundle, access } of FUNCTIONS) {
      const b = bundles.get(bundle)!;
      const all = packagesOf([...b.inputs, ...b.lazyInputs]);
      for (const client of new Set(access.flatMap((a) => CLIENTS_OF_ACCESS[a])))
        if (!all.has(client)) missing.push(`${bundle}: ${client}`);
      if (access.some((a) => a.startsWith('table:'))) {
        const eager = packagesOf(b.inputs);
        for (const p of ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'])
          if (!eager.has(p)) dynamoLazy.push(`${bundle}: ${p}`);
      }
    }
    expect(missing, 'granted, not bundled').toEqual([]);
    expect(dynamoLazy, 'DynamoDB not run with the entry').toEqual([]);
  });

  it("maps our own code and nothing from node_modules in every bundle's source map", () => {
    const wrong: string[] = [];
    for (const [name, b] of bundles) {
      const map = JSON.parse(readFileSync(path.join(b.dir, 'index.mjs.map'), 'utf8')) as { sources: string[] };
      const dependencies = map.sources.filter((s) => s.includes('node_modules'));
      if (dependencies.length > 0)
        wrong.push(`${name}: maps ${dependencies.length} sources from node_modules, e.g. ${dependencies[0]}`);
      if (!map.sources.some((s) => /(^|\/)functions\//u.test(s))) wrong.push(`${name}: maps no source of functions/`);
    }
    expect(wrong).toEqual([]);
  });

  it(`runs ${LAZY_CLIENTS.map((c) => c.replace('@aws-sdk/client-', '')).join(', ')} on first use, never with the entry`, () => {
    const eager: string[] = [];
    let lazy = 0;
    for (const [name, b] of bundles) {
      const atInit = packagesOf(b.inputs);
      const onDemand = packagesOf(b.lazyInputs);
      for (const client of LAZY_CLIENTS) {
        if (atInit.has(client)) eager.push(`${name}: ${client}`);
        if (onDemand.has(client)) lazy++;
      }
    }
    expect(eager, 'run with the entry').toEqual([]);
    // The granted clients are bundled (test above), so they are these.
    expect(lazy).toBeGreaterThan(0);
  });

  it('carries CloudFront only in the functions granted cdn:tenants (the tenant job), not in every one importing the domain services', () => {
    const granted = new Set(FUNCTIONS.filter((f) => f.access.includes('cdn:tenants')).map((f) => f.bundle));
    const carrying = [...bundles]
      .filter(([, b]) => packagesOf([...b.inputs, ...b.lazyInputs]).has('@aws-sdk/client-cloudfront'))
      .map(([name]) => name);
    expect(granted.size).toBeGreaterThan(0);
    expect(carrying.sort()).toEqual([...granted].sort());
  });

  it('bundles neither aws4fetch nor the hand-written AWS layer (functions/lib/aws)', () => {
    const found: string[] = [];
    for (const [name, b] of bundles) {
      for (const src of [...b.inputs, ...b.lazyInputs])
        if (src.includes('node_modules/aws4fetch/') || src.startsWith('functions/lib/aws/'))
          found.push(`${name}: ${src}`);
    }
    expect(found).toEqual([]);
  });
});

describe('functions/ sources', () => {
  it('import neither aws4fetch nor functions/lib/aws (the AWS SDK v3 clients replace them)', () => {
    const dir = path.join(REPO_ROOT, 'functions');
    expect(existsSync(path.join(dir, 'lib', 'aws')), 'functions/lib/aws/ is gone').toBe(false);
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.tsx?$/u.test(f));
    const offenders: string[] = [];
    const specifiers = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gmu;
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      for (const m of text.matchAll(specifiers)) {
        const spec = m[1]!;
        const intoLayer =
          spec.startsWith('.') &&
          path
            .relative(path.join(dir, 'lib', 'aws'), path.resolve(path.dirname(path.join(dir, f)), spec))
            .split(path.sep)[0] !== '..';
        if (spec === 'aws4fetch' || spec.startsWith('aws4fetch/') || intoLayer) offenders.push(`${f}: ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
