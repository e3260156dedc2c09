/**
 * In the infrastructure: the thumbnails job ships sharp outside its bundle, with the
 * prebuilt linux-x64 binary copied from the installed tree (no download, no Docker), and runs
 * on x86_64; no other function carries or needs it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { functionGroupOf, jobs, routes } from '../../functions/routes';
import {
  buildLambdaBundles,
  copyNativePackage,
  jobBundleName,
  lambdaBundleSpecs,
  LAMBDA_BUNDLE_FILE,
  NATIVE_PACKAGES,
} from '../../lib/lambda-bundles';
import { logicalId, synthSendBridge } from './synth';

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('the thumbnails job bundle', () => {
  const bundles = buildLambdaBundles(lambdaBundleSpecs());
  const job = bundles.get(jobBundleName('thumbnails'))!;

  it('leaves sharp out of index.mjs and ships it, with its linux-x64 binary and libvips, beside it', () => {
    expect(job.nativePackages).toEqual(['sharp']);
    expect(job.inputs.filter((p) => p.includes('node_modules/sharp/') || p.includes('@img/'))).toEqual([]);
    expect(readFileSync(path.join(job.dir, LAMBDA_BUNDLE_FILE), 'utf8')).toMatch(/import\("sharp"\)/u);
    const shipped = path.join(job.dir, 'node_modules');
    expect(existsSync(path.join(shipped, 'sharp', 'package.json'))).toBe(true);
    expect(
      readdirSync(path.join(shipped, '@img', 'sharp-linux-x64', 'lib')).filter((f) =>
        /^sharp-linux-x64.*\.node$/u.test(f),
      ),
    ).toHaveLength(1);
    expect(existsSync(path.join(shipped, '@img', 'sharp-libvips-linux-x64', 'package.json'))).toBe(true);
    // nothing built for another platform rides along
    expect(existsSync(path.join(shipped, '@img', 'sharp-linuxmusl-x64'))).toBe(false);
    expect(existsSync(path.join(shipped, '@img', 'sharp-linux-arm64'))).toBe(false);
  });

  it('no other bundle ships a native package', () => {
    for (const [name, b] of bundles) {
      if (name === jobBundleName('thumbnails')) continue;
      expect(b.nativePackages, name).toEqual([]);
      expect(existsSync(path.join(b.dir, 'node_modules')), name).toBe(false);
    }
  });

  it('the shipped copy works on its own, outside the repository: it makes a WebP thumbnail', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-thumb-job-'));
    temp.push(dir);
    cpSync(path.join(job.dir, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true });
    writeFileSync(
      path.join(dir, 'probe.mjs'),
      [
        "import sharp from 'sharp';",
        "const png = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#c00' } }).png().toBuffer();",
        "const out = await sharp(png).resize(400, 400, { fit: 'inside' }).webp().toBuffer();",
        'const m = await sharp(out).metadata();',
        "console.log(JSON.stringify({ format: m.format, width: m.width, height: m.height, from: import.meta.resolve('sharp') }));",
      ].join('\n'),
    );
    const out = JSON.parse(execFileSync(process.execPath, ['probe.mjs'], { cwd: dir, encoding: 'utf8' })) as {
      format: string;
      width: number;
      height: number;
      from: string;
    };
    expect(out).toMatchObject({ format: 'webp', width: 400, height: 133 });
    expect(out.from.startsWith(`file://${dir}/node_modules/sharp/`)).toBe(true);
  });

  it('fails the synth, naming the package and the npm command, when the linux-x64 binary is not installed', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sb-no-binary-'));
    temp.push(root);
    mkdirSync(path.join(root, 'sharp'), { recursive: true });
    writeFileSync(
      path.join(root, 'sharp', 'package.json'),
      JSON.stringify({ name: 'sharp', optionalDependencies: { '@img/sharp-linux-x64': '1' } }),
    );
    expect(() => copyNativePackage('sharp', path.join(root, 'out'), root)).toThrow(
      /@img\/sharp-linux-x64.*npm install --os=linux --cpu=x64 --libc=glibc sharp/u,
    );
    expect(NATIVE_PACKAGES.sharp?.required).toContain('@img/sharp-linux-x64');
  });
});

describe('the thumbnails job function', () => {
  const t = synthSendBridge();
  const resources = t.template(t.core).toJSON().Resources as Record<
    string,
    { Type: string; Properties: Record<string, any> }
  >;

  it('is an on-demand job on x86_64 (the shipped binary is linux-x64); every other function stays arm64', () => {
    const def = jobs.find((j) => j.name === 'thumbnails')!;
    expect(def.schedule).toBeUndefined();
    expect(def.architecture).toBe('x86_64');
    const id = logicalId(t.core.jobFunctions.get('thumbnails')!.function, t.core);
    expect(resources[id]!.Properties.Architectures).toEqual(['x86_64']);
    const others = Object.entries(resources).filter(
      ([rid, r]) => r.Type === 'AWS::Lambda::Function' && rid !== id && r.Properties.Runtime?.startsWith('nodejs'),
    );
    expect(others.length).toBeGreaterThan(5);
    for (const [rid, r] of others) expect(r.Properties.Architectures, rid).toEqual(['arm64']);
  });

  it('only the functions of the previews routes may start it', () => {
    const jobArn = JSON.stringify({
      'Fn::GetAtt': [logicalId(t.core.jobFunctions.get('thumbnails')!.function, t.core), 'Arn'],
    });
    const invokers = [...t.core.routeFunctions]
      .filter(([, fn]) => {
        const role = resources[logicalId(fn.role, t.core)]!;
        return (role.Properties.Policies ?? []).some(
          (p: { PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } }) =>
            p.PolicyDocument.Statement.some(
              (st) =>
                [st.Action].flat().includes('lambda:InvokeFunction') &&
                [st.Resource].flat().some((r) => JSON.stringify(r) === jobArn),
            ),
        );
      })
      .map(([group]) => group);
    const expected = [
      ...new Set(routes.filter((r) => r.invokes?.includes('thumbnails')).map((r) => functionGroupOf(r))),
    ];
    expect(expected.sort()).toEqual(['downloads', 'transfers']);
    expect(invokers.sort()).toEqual(expected);
  });
});
