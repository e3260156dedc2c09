import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, createSign } from 'node:crypto';
import { createRequire } from 'node:module';
import type { LocalApp } from '../../scripts/local/app';
import { signInNewPoolUser } from '../../scripts/local/users';
import { getJobRun } from '../../functions/data/system';
import { checkHealth } from '../../functions/services/health';
import { api, startTestApp } from '../helpers/local-app';

let app: LocalApp;
let accessToken: string;
let idToken: string;

function b64url(input: Buffer | string) {
  return Buffer.from(input).toString('base64url');
}

/** Signs with cognito-local's own key, so only the claim under test makes a token invalid. */
function mintWithPoolKey(overrides: Record<string, unknown>): string {
  const { pem } = createRequire(import.meta.url)('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string };
  const [h, p] = accessToken.split('.');
  const payload = { ...JSON.parse(Buffer.from(p!, 'base64url').toString()), ...overrides };
  const body = `${h}.${b64url(JSON.stringify(payload))}`;
  const signer = createSign('RSA-SHA256');
  signer.update(body);
  return `${body}.${b64url(signer.sign(pem))}`;
}

beforeAll(async () => {
  // One test stops DynamoDB Local to see /health report it: this file runs emulators of its own.
  app = await startTestApp(undefined, { ownStack: true });
  ({ accessToken, idToken } = await signInNewPoolUser(app, `it-${Date.now()}@example.com`, 'secret123'));
});

afterAll(async () => {
  await app?.stop();
});

describe('GET /api/health through the local gateway', () => {
  it('says only ok to the public, naming no pool, region or bucket', async () => {
    const res = await api(app, '/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('gives operators every service, ok against the real emulators', async () => {
    const report = await checkHealth();
    expect(report.ok).toBe(true);
    expect(Object.keys(report.services).sort()).toEqual(['buckets', 'mail', 'table', 'userPool']);
    expect(report.services.buckets.detail).toEqual({
      regions: ['hongkong', 'siliconvalley', 'frankfurt', 'dubai', 'hangzhou', 'guangzhou'],
    });
  });
});

describe('a JWT route', () => {
  it('accepts a real cognito-local access token and hands the claims to the handler', async () => {
    const res = await api(app, '/me/claims', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.status).toBe(200);
    expect(res.json.clientId).toBe(app.stack.userPoolClientId);
    expect(res.json.tokenUse).toBe('access');
    expect(res.json.sub).toMatch(/\S+/);
  });

  it('refuses a request without a token', async () => {
    const res = await api(app, '/me/claims');
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ message: 'Unauthorized' });
  });

  it('refuses a token whose payload was altered after signing', async () => {
    const [h, p, s] = accessToken.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = [h, b64url(JSON.stringify({ ...payload, sub: 'someone-else' })), s].join('.');
    expect((await api(app, '/me/claims', { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
  });

  it('refuses a token signed with another key under the same kid and issuer', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const [h, p] = accessToken.split('.');
    const signer = createSign('RSA-SHA256');
    signer.update(`${h}.${p}`);
    const forged = `${h}.${p}.${b64url(signer.sign(privateKey))}`;
    expect((await api(app, '/me/claims', { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
  });

  it('accepts a token re-signed with the pool key when nothing else changed (the control for the cases below)', async () => {
    const res = await api(app, '/me/claims', { headers: { authorization: `Bearer ${mintWithPoolKey({})}` } });
    expect(res.status).toBe(200);
  });

  it('refuses an expired token, a token for another client and a token from another issuer', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases = {
      expired: mintWithPoolKey({ iat: now - 7200, exp: now - 60 }),
      otherClient: mintWithPoolKey({ client_id: 'someotherclient' }),
      otherIssuer: mintWithPoolKey({ iss: `${app.stack.urls.cognito}/local_other` }),
    };
    for (const [name, token] of Object.entries(cases)) {
      const res = await api(app, '/me/claims', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, name).toBe(401);
    }
  });

  it('refuses an ID token where an access token is required', async () => {
    expect((await api(app, '/me/claims', { headers: { authorization: `Bearer ${idToken}` } })).status).toBe(401);
  });
});

describe('the gateway itself', () => {
  it("answers unknown routes and wrong methods with API Gateway's 404", async () => {
    expect(await api(app, '/no-such-route')).toMatchObject({ status: 404, json: { message: 'Not Found' } });
    expect((await api(app, '/health', { method: 'DELETE' })).status).toBe(404);
  });

  it('answers CORS preflights for the configured origin only', async () => {
    const pre = (origin: string) =>
      fetch(`${app.apiOrigin}/api/health`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
    const ok = await pre('http://127.0.0.1:5999');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5999');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await pre('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('runs scheduled jobs as EventBridge would, recording each run in the table', async () => {
    const before = (await getJobRun('heartbeat'))?.runs ?? 0;
    await app.gateway.runJob('heartbeat');
    await app.gateway.runJob('heartbeat');
    expect((await getJobRun('heartbeat'))?.runs).toBe(before + 2);
    expect((await checkHealth()).scheduler.heartbeat?.runs).toBe(before + 2);
  });

  it('reports a stopped emulator as failing and the rest as ok', async () => {
    const s3 = await fetch(app.stack.urls.s3).catch(() => undefined);
    expect(s3).toBeDefined();
    await app.stack.stopService('dynamodb');
    const res = await api(app, '/health');
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: 'degraded' });
    const report = await checkHealth();
    expect(report.services.table.ok).toBe(false);
    expect(report.services.userPool.ok).toBe(true);
    expect(report.services.buckets.ok).toBe(true);
  });
});
