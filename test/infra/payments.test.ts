/**
 * In the infrastructure: the Stripe secret is readable only by the functions whose
 * routes talk to the payments provider (access 'payments'), on that one secret; they get the
 * provider choice and Stripe's price ids from context; and the Stripe SDK stays out of every
 * index.mjs, shipped as a chunk beside the bundles that hold the Stripe provider and loaded by
 * them at run time.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionGroupOf, routes } from '../../functions/routes';
import { ENV } from '../../functions/lib/env-names';
import { SIMULATOR_DEFAULT_WEBHOOK_SECRET } from '../../functions/lib/env';
import { STRIPE_SECRET_NAME } from '../../lib/app-config';
import {
  buildLambdaBundles,
  lambdaBundleSpecs,
  LAMBDA_BUNDLE_FILE,
  STRIPE_PROVIDER_MODULE,
  STRIPE_SDK_CHUNK_FILE,
} from '../../lib/lambda-bundles';
import { REPO_ROOT } from '../../lib/paths';
import { logicalId, resourcesOf, synthSendBridge } from './synth';

type Statement = { Action: string | string[]; Resource: unknown };

function fnOf(t: ReturnType<typeof synthSendBridge>, fnId: string) {
  const res = t.template(t.core).toJSON().Resources;
  const fn = res[fnId];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const statements = (res[roleId].Properties.Policies ?? []).flatMap(
    (p: { PolicyDocument: { Statement: Statement[] } }) => p.PolicyDocument.Statement,
  ) as Statement[];
  return { env: fn.Properties.Environment.Variables as Record<string, unknown>, statements };
}

describe('the Stripe secret and the payments settings', () => {
  const t = synthSendBridge();
  const paying = new Set(routes.filter((r) => r.access.includes('payments')).map((r) => functionGroupOf(r)));

  it('some routes talk to the provider', () => {
    expect(paying.size).toBeGreaterThan(0);
  });

  it('grants secretsmanager:GetSecretValue on the one Stripe secret only to the functions whose routes have access payments', () => {
    for (const [group, fn] of t.core.routeFunctions) {
      const { env, statements } = fnOf(t, logicalId(fn.function, t.core));
      // the receipt keys' secret is granted apart (access 'receipts'); this is about the Stripe one
      const grants = statements.filter(
        (s) =>
          [s.Action].flat().some((a) => a.startsWith('secretsmanager:')) &&
          !JSON.stringify(s.Resource).includes('ReceiptSigningKeys'),
      );
      if (!paying.has(group)) {
        expect(grants, group).toEqual([]);
        for (const name of [ENV.payments, ENV.stripePrices, ENV.stripeSecretId])
          expect(env[name], `${group} ${name}`).toBeUndefined();
        continue;
      }
      expect(grants, group).toHaveLength(1);
      expect(grants[0]!.Action).toBe('secretsmanager:GetSecretValue');
      expect(JSON.stringify(grants[0]!.Resource)).toContain(`:secret:${STRIPE_SECRET_NAME}-??????`);
      expect(env[ENV.payments]).toBe('simulated');
      expect(env[ENV.stripePrices]).toBe('{}');
      expect(env[ENV.stripeSecretId]).toBe(STRIPE_SECRET_NAME);
      // The keys themselves never travel in the environment.
      expect(JSON.stringify(env)).not.toMatch(/sk_(test|live)_|pk_(test|live)_|whsec_/u);
    }
    for (const [name, fn] of t.core.jobFunctions) {
      const { statements } = fnOf(t, logicalId(fn.function, t.core));
      expect(
        statements.filter(
          (s) =>
            [s.Action].flat().some((a) => a.startsWith('secretsmanager:')) &&
            !JSON.stringify(s.Resource).includes('ReceiptSigningKeys'),
        ),
        name,
      ).toEqual([]);
    }
  });

  it('-c payments=stripe -c stripePrices=… reach the paying functions', () => {
    const prices = { 'pro/month': 'price_1Pro', 'pro/year': 'price_1ProY' };
    const s = synthSendBridge({ payments: 'stripe', stripePrices: JSON.stringify(prices) });
    const group = [...paying][0]!;
    const { env } = fnOf(s, logicalId(s.core.routeFunctions.get(group)!.function, s.core));
    expect(env[ENV.payments]).toBe('stripe');
    expect(JSON.parse(String(env[ENV.stripePrices]))).toEqual(prices);
  });

  it('refuses a Stripe deployment without prices, and prices that are not price ids', () => {
    expect(() => synthSendBridge({ payments: 'stripe' })).toThrow(/stripePrices/u);
    expect(() => synthSendBridge({ payments: 'paypal' })).toThrow(/payments/u);
    expect(() => synthSendBridge({ stripePrices: '{"pro/week":"price_1"}' })).toThrow(/stripePrices/u);
    expect(() => synthSendBridge({ stripePrices: 'not json' })).toThrow(/stripePrices/u);
  });

  it('creates no Stripe secret (the operator does, docs/deploy.md)', () => {
    const secrets = Object.values(resourcesOf(t.template(t.core), 'AWS::SecretsManager::Secret'));
    expect(JSON.stringify(secrets)).not.toContain(STRIPE_SECRET_NAME);
  });
});

describe('the Stripe SDK chunk', () => {
  const fn = (m: string) => JSON.stringify(path.join(REPO_ROOT, 'functions', m));
  // A function that uses the Stripe provider as the billing routes do (the real provider module, keys and fetch given).
  const probe = {
    name: 'probe-stripe',
    source: [
      `import { StripeProvider } from ${fn('adapters/payments/stripe')};`,
      `const keys = { current: undefined, load: async () => ({ secretKey: 'sk_test_probe', publishableKey: 'pk_test_probe', webhookSecret: 'whsec_probe' }) };`,
      `const answer = { object: 'list', data: [{ id: 'price_probe', object: 'price', active: true, currency: 'usd', nickname: 'Pro monthly', unit_amount: 2900, recurring: { interval: 'month' }, metadata: { role: 'pro' } }], has_more: false, url: '/v1/prices' };`,
      `const fetch = async () => new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });`,
      `export const handler = async () => new StripeProvider({ keys, prices: { 'pro/month': 'price_probe' }, fetch, maxNetworkRetries: 0 }).prices();`,
      '',
    ].join('\n'),
  };
  const bundles = buildLambdaBundles([...lambdaBundleSpecs(), probe]);

  it('no index.mjs carries the SDK; the chunk sits beside exactly the bundles that hold the Stripe provider', () => {
    for (const [name, b] of bundles) {
      // index.mjs holds inputs that run with it and inputs only an import() reaches.
      const bundled = [...b.inputs, ...b.lazyInputs];
      expect(
        bundled.filter((p) => p.includes('node_modules/stripe/')),
        name,
      ).toEqual([]);
      const holds = bundled.includes(STRIPE_PROVIDER_MODULE);
      expect(existsSync(path.join(b.dir, STRIPE_SDK_CHUNK_FILE)), name).toBe(holds);
      expect(
        b.chunks.map((c) => c.file),
        name,
      ).toEqual(holds ? [STRIPE_SDK_CHUNK_FILE] : []);
    }
    const probeBundle = bundles.get('probe-stripe')!;
    expect([...probeBundle.inputs, ...probeBundle.lazyInputs]).toContain(STRIPE_PROVIDER_MODULE);
  }, 120_000);

  it('the chunk is the whole SDK (~246 KB), imported by path from index.mjs', () => {
    const chunk = bundles.get('probe-stripe')!.chunks[0]!;
    expect(chunk.bytes).toBeGreaterThan(150_000);
    expect(chunk.bytes).toBeLessThan(400_000);
    expect(readFileSync(path.join(bundles.get('probe-stripe')!.dir, LAMBDA_BUNDLE_FILE), 'utf8')).toContain(
      `./${STRIPE_SDK_CHUNK_FILE}`,
    );
  });

  it('the bundled provider loads the chunk at run time and talks through the SDK', async () => {
    const mod = (await import(pathToFileURL(path.join(bundles.get('probe-stripe')!.dir, LAMBDA_BUNDLE_FILE)).href)) as {
      handler: () => Promise<unknown>;
    };
    expect(await mod.handler()).toEqual([
      { priceId: 'price_probe', role: 'pro', period: 'month', amount: 29, currency: 'usd', nickname: 'Pro monthly' },
    ]);
  });
});

describe('payments fail closed in AWS', () => {
  it('a synth that does not choose a provider is refused, naming both choices', () => {
    expect(() => synthSendBridge({ payments: '' })).toThrow(
      /-c payments is required: "stripe" takes real payments.*"simulated" runs the payments simulator/su,
    );
  });

  it("the simulator signs its events with a generated secret, never the local stack's built-in one", () => {
    const t = synthSendBridge();
    const core = t.template(t.core).toJSON();
    expect(JSON.stringify(core)).not.toContain(SIMULATOR_DEFAULT_WEBHOOK_SECRET);
    const secrets = Object.entries(resourcesOf(t.template(t.core), 'AWS::SecretsManager::Secret')).filter(([id]) =>
      id.startsWith('PaymentsSimulatorWebhookSecret'),
    );
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0]!;
    expect(secret.Properties?.GenerateSecretString).toMatchObject({ PasswordLength: 48 });
    const paying = new Set(routes.filter((r) => r.access.includes('payments')).map((r) => functionGroupOf(r)));
    for (const [group, fn] of t.core.routeFunctions) {
      const value = fnOf(t, logicalId(fn.function, t.core)).env[ENV.paymentsWebhookSecret];
      if (!paying.has(group)) {
        expect(value, group).toBeUndefined();
        continue;
      }
      expect(JSON.stringify(value), group).toContain('{{resolve:secretsmanager:');
      expect(JSON.stringify(value), group).toContain(secretId);
    }
  });

  it('the synth says the simulator hands out plans for a test card', () => {
    const t = synthSendBridge();
    const warnings = t.app.node
      .findAll()
      .flatMap((c) => c.node.metadata)
      .filter((m) => m.type === 'aws:cdk:warning')
      .map((m) => String(m.data));
    expect(warnings.some((w) => w.includes('4242 4242 4242 4242') && w.includes('-c payments=stripe'))).toBe(true);
  });

  it('with Stripe there is no simulator secret and no simulator signing secret in any environment', () => {
    const prices = Object.fromEntries(
      ['pro', 'team', 'teamelite'].flatMap((p) => ['month', 'year'].map((i) => [`${p}/${i}`, `price_${p}_${i}`])),
    );
    const t = synthSendBridge({ payments: 'stripe', stripePrices: JSON.stringify(prices) });
    expect(
      Object.keys(resourcesOf(t.template(t.core), 'AWS::SecretsManager::Secret')).filter((id) =>
        id.startsWith('PaymentsSimulator'),
      ),
    ).toEqual([]);
    for (const [group, fn] of t.core.routeFunctions)
      expect(fnOf(t, logicalId(fn.function, t.core)).env[ENV.paymentsWebhookSecret], group).toBeUndefined();
  });
});
