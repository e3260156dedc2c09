import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import { routes } from '@/app/routes';
import { extensionLoader, type ExtensionResult } from '@/features/extension/extension-loader';

const TOKEN = `${'A'.repeat(40)}_-9`;

function stubApi(respond: () => Response) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      bodies.push({ url, body: JSON.parse(String(init?.body)) });
      return respond();
    }),
  );
  return bodies;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function load(id: string) {
  return extensionLoader({
    params: { id },
    request: new Request(`http://localhost/extension/${id}`),
    context: undefined,
  } as never) as Promise<ExtensionResult>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('extensionLoader', () => {
  it('posts the token and shows the new expiry', async () => {
    const calls = stubApi(() => json(200, { expiryDate: 1_800_000_000_000 }));
    await expect(load(TOKEN)).resolves.toEqual({ status: 'extended', expiryDate: 1_800_000_000_000 });
    expect(calls).toEqual([{ url: '/api/checkExtension', body: { token: TOKEN } }]);
  });

  it("shows 'Link expired' for a used, unknown or refused token", async () => {
    for (const status of [410, 404, 400]) {
      stubApi(() => json(status, { error: { code: 'x', message: 'Link expired' } }));
      await expect(load(TOKEN), String(status)).resolves.toEqual({ status: 'expired' });
    }
  });

  it("shows 'Link expired' when the server never answers, sending the approval once (a POST that mails is never retried)", async () => {
    vi.useFakeTimers();
    const calls = stubApi(() => {
      throw new TypeError('Failed to fetch');
    });
    const result = load(TOKEN);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(result).resolves.toEqual({ status: 'expired' });
    expect(calls.length).toBe(1);
  });

  it('does not post a token that cannot be one', async () => {
    const calls = stubApi(() => json(200, { expiryDate: 1 }));
    await expect(load('short')).resolves.toEqual({ status: 'expired' });
    expect(calls).toEqual([]);
  });

  it('the route posts the token once per visit', async () => {
    const calls = stubApi(() => json(200, { expiryDate: 1_800_000_000_000 }));
    const router = createMemoryRouter(routes, { initialEntries: [`/extension/${TOKEN}`] });
    // createMemoryRouter has already started the initial load (calling initialize() again would reload).
    for (let i = 0; i < 100 && !router.state.initialized; i++) await new Promise((r) => setTimeout(r, 20));
    expect(Object.values(router.state.loaderData)).toContainEqual({
      status: 'extended',
      expiryDate: 1_800_000_000_000,
    });
    await router.navigate(`/extension/${TOKEN}?lng=fr`);
    expect(calls).toHaveLength(1);
    router.dispose();
  });
});
