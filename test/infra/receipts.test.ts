/**
 * Receipt signing keys in AWS (docs/decisions/0078): one Secrets Manager secret in the core
 * stack, created as an empty key set and kept on stack deletion, which only the functions whose
 * routes or jobs sign or publish receipts (access 'receipts') may read and write, told its ARN
 * in RECEIPT_KEYS_SECRET_ID; no key travels in an environment.
 */
import { describe, expect, it } from 'vitest';
import { ENV } from '../../functions/lib/env-names';
import { functionGroupOf, jobs, routes } from '../../functions/routes';
import { logicalId, resourcesOf, synthSendBridge } from './synth';

type Statement = { Action: string | string[]; Resource: unknown };

describe('the receipt signing keys', () => {
  const t = synthSendBridge();
  const resources = t.template(t.core).toJSON().Resources as Record<string, any>;
  const secrets = Object.entries(resourcesOf(t.template(t.core), 'AWS::SecretsManager::Secret')).filter(([id]) =>
    id.startsWith('ReceiptSigningKeys'),
  );

  function fnOf(fnId: string) {
    const fn = resources[fnId];
    const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
    const statements = (resources[roleId].Properties.Policies ?? []).flatMap(
      (p: { PolicyDocument: { Statement: Statement[] } }) => p.PolicyDocument.Statement,
    ) as Statement[];
    return { env: (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>, statements };
  }

  it('is one secret, created holding an empty key set and retained', () => {
    expect(secrets).toHaveLength(1);
    const [id, secret] = secrets[0]! as [string, Record<string, any>];
    expect(JSON.parse(secret.Properties.GenerateSecretString.SecretStringTemplate)).toEqual({ keys: [] });
    expect(secret.DeletionPolicy).toBe('Retain');
    expect(id).toMatch(/^ReceiptSigningKeys/u);
  });

  it('is read and written only by the functions that sign or publish receipts, on that secret alone', () => {
    const [secretId] = secrets[0]!;
    const signingGroups = new Set(routes.filter((r) => r.access.includes('receipts')).map((r) => functionGroupOf(r)));
    const signingJobs = new Set(jobs.filter((j) => j.access.includes('receipts')).map((j) => j.name));
    expect(signingGroups.size).toBeGreaterThan(0);
    expect(signingJobs.has('deliveries')).toBe(true);
    const fns = [
      ...[...t.core.routeFunctions].map(([group, fn]) => [group, fn, signingGroups.has(group)] as const),
      ...[...t.core.jobFunctions].map(([name, fn]) => [name, fn, signingJobs.has(name)] as const),
    ];
    for (const [name, fn, signs] of fns) {
      const { env, statements } = fnOf(logicalId(fn.function, t.core));
      const grants = statements.filter((s) => JSON.stringify(s.Resource).includes(secretId));
      if (!signs) {
        expect(grants, name).toEqual([]);
        expect(env[ENV.receiptKeysSecretId], name).toBeUndefined();
        continue;
      }
      expect(grants, name).toHaveLength(1);
      expect([grants[0]!.Action].flat().sort(), name).toEqual([
        'secretsmanager:GetSecretValue',
        'secretsmanager:PutSecretValue',
      ]);
      expect(grants[0]!.Resource, name).toEqual({ Ref: secretId });
      expect(env[ENV.receiptKeysSecretId], name).toEqual({ Ref: secretId });
      expect(env[ENV.receiptKeysFile], name).toBeUndefined();
    }
  });
});
