import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLambdaBundles, lambdaBundleSpecs } from '../../lib/lambda-bundles';
import { REPO_ROOT } from '../../lib/paths';

/**
 * functions/ reach AWS through functions/lib/aws (aws4fetch + @aws-sdk/util-dynamodb), never the
 * AWS SDK's clients, whose runtime (@smithy/core, the clients' schemas) weighed 370-510 KB in
 * every bundle (docs/decisions.md, "Lambda bundles"). Type imports of the SDK cost nothing.
 */
const SDK_RUNTIME = /(^|\/)node_modules\/(@smithy\/|@aws-sdk\/(?!util-dynamodb\/)|@aws-crypto\/|aws-sdk\/)/u;

describe('Lambda bundle contents', () => {
  it('bundles no AWS SDK client, SDK core or smithy runtime', () => {
    const bundles = buildLambdaBundles(lambdaBundleSpecs());
    expect(bundles.size).toBeGreaterThan(0);
    for (const [name, b] of bundles) {
      expect(b.inputs.length, name).toBeGreaterThan(0);
      expect(b.inputs.filter((p) => SDK_RUNTIME.test(p)), name).toEqual([]);
    }
  }, 120_000);

  it('functions/ import the SDK for types only (import type), besides @aws-sdk/util-dynamodb', () => {
    const files = (readdirSync(path.join(REPO_ROOT, 'functions'), { recursive: true }) as string[]).filter((f) => /\.tsx?$/u.test(f));
    const offenders: string[] = [];
    for (const f of files) {
      const text = readFileSync(path.join(REPO_ROOT, 'functions', f), 'utf8');
      for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+'(@aws-sdk\/[^']+|@smithy\/[^']+)'/gmu)) {
        if (!m[2] && m[3] !== '@aws-sdk/util-dynamodb') offenders.push(`${f}: ${m[0].trim().slice(0, 80)}`);
      }
      for (const m of text.matchAll(/(?:import|require)\(\s*'(@aws-sdk\/[^']+|@smithy\/[^']+)'\s*\)/gu)) offenders.push(`${f}: ${m[0]}`);
    }
    expect(offenders).toEqual([]);
  });
});
