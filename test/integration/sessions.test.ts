/**
 * Session families against the local stack (cognito-local, DynamoDB Local): the refresh
 * cookie rotates on every renewal, an old cookie presented again ends its whole family, and
 * logout (or that reuse) also ends the access tokens the family issued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { LocalApp } from '../../scripts/local/app';
import { api, startTestApp } from '../helpers/local-app';
import { createUser, json } from '../helpers/transfers';

let app: LocalApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.stop();
});

interface Signed {
  readonly cookie: string;
  readonly accessToken: string;
}

function cookieOf(headers: Headers): string | undefined {
  return headers
    .getSetCookie()
    .find((c) => c.startsWith('sb_refresh='))
    ?.split(';')[0];
}

async function login(email: string): Promise<Signed> {
  const res = await api(app, '/combinedAuth', json({ email, password: 'secret123' }));
  expect(res.status, res.text).toBe(200);
  return { cookie: cookieOf(res.headers)!, accessToken: res.json.accessToken as string };
}

const refresh = (cookie: string) => api(app, '/refreshToken', { headers: { cookie } });
const me = (accessToken: string) => api(app, '/me', { headers: { authorization: `Bearer ${accessToken}` } });

async function renewed(cookie: string): Promise<Signed> {
  const res = await refresh(cookie);
  expect(res.status, res.text).toBe(200);
  const next = cookieOf(res.headers);
  expect(next, 'a renewal sets a new cookie').toBeDefined();
  return { cookie: next!, accessToken: res.json.accessToken as string };
}

describe('refresh cookie rotation', () => {
  const email = 'rotation@example.com';

  beforeAll(async () => {
    await createUser(app, email);
  });

  it('every renewal hands out a new cookie, and access tokens live 15 minutes at most', async () => {
    const first = await login(email);
    const second = await renewed(first.cookie);
    const third = await renewed(second.cookie);
    expect(new Set([first.cookie, second.cookie, third.cookie]).size).toBe(3);
    const res = await refresh(third.cookie);
    expect(res.json.expiresAt - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect((await me(third.accessToken)).status).toBe(200);
  });

  it('an old cookie presented again is refused and ends the family: the newer cookie and its access tokens stop working', async () => {
    const first = await login(email);
    const second = await renewed(first.cookie);
    expect((await me(second.accessToken)).status).toBe(200);

    const replay = await refresh(first.cookie);
    expect(replay.status).toBe(401);
    expect(replay.json.error.code).toBe('session_revoked');

    const victim = await refresh(second.cookie);
    expect(victim.status).toBe(401);
    expect(victim.json.error.code).toBe('session_revoked');
    for (const token of [first.accessToken, second.accessToken]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('token_revoked');
    }
  });

  it('two renewals with one cookie at once: one wins, then the family ends anyway', async () => {
    const first = await login(email);
    const results = await Promise.all([refresh(first.cookie), refresh(first.cookie)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const winner = results.find((r) => r.status === 200)!;
    const after = await refresh(cookieOf(winner.headers)!);
    expect(after.status).toBe(401);
    expect((await me(winner.json.accessToken as string)).json.error?.code).toBe('token_revoked');
  });

  it('ending one family leaves the same user signed in elsewhere', async () => {
    const laptop = await login(email);
    const phone = await login(email);
    await renewed(laptop.cookie);
    expect((await refresh(laptop.cookie)).status).toBe(401);
    const stillThere = await renewed(phone.cookie);
    expect((await me(stillThere.accessToken)).status).toBe(200);
    expect((await me(phone.accessToken)).status).toBe(200);
  });

  it('the cookie cannot be taken to Cognito directly (the Cognito refresh token stays sealed in the table)', async () => {
    const { cookie } = await login(email);
    const value = cookie.slice('sb_refresh='.length);
    const idp = new CognitoIdentityProviderClient({
      endpoint: app.stack.urls.cognito,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    try {
      for (const candidate of [value, ...value.split('.')]) {
        await expect(
          idp.send(
            new InitiateAuthCommand({
              ClientId: app.stack.userPoolClientId,
              AuthFlow: 'REFRESH_TOKEN_AUTH',
              AuthParameters: { REFRESH_TOKEN: candidate },
            }),
          ),
        ).rejects.toThrow();
      }
    } finally {
      idp.destroy();
    }
  });

  it('a bare Cognito refresh token (the cookie before session families) is not a session', async () => {
    const idp = new CognitoIdentityProviderClient({
      endpoint: app.stack.urls.cognito,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    try {
      const out = await idp.send(
        new InitiateAuthCommand({
          ClientId: app.stack.userPoolClientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: 'secret123' },
        }),
      );
      const res = await refresh(`sb_refresh=${out.AuthenticationResult!.RefreshToken!}`);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('session_expired');
    } finally {
      idp.destroy();
    }
  });
});

describe('logout', () => {
  const email = 'logout@example.com';

  beforeAll(async () => {
    await createUser(app, email);
  });

  it('ends the access tokens the session issued (401 token_revoked) and its cookie', async () => {
    const first = await login(email);
    const second = await renewed(first.cookie);
    expect((await me(first.accessToken)).status).toBe(200);
    expect((await me(second.accessToken)).status).toBe(200);

    const out = await api(app, '/logout', { headers: { cookie: second.cookie } });
    expect(out.status).toBe(200);

    for (const token of [first.accessToken, second.accessToken]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('token_revoked');
    }
    const again = await refresh(second.cookie);
    expect(again.status).toBe(401);
    expect(again.json.error.code).toBe('session_revoked');
  });

  it("leaves the user's other sessions alone", async () => {
    const laptop = await login(email);
    const phone = await login(email);
    expect((await api(app, '/logout', { headers: { cookie: laptop.cookie } })).status).toBe(200);
    expect((await me(laptop.accessToken)).status).toBe(401);
    expect((await me(phone.accessToken)).status).toBe(200);
    await renewed(phone.cookie);
  });
});
