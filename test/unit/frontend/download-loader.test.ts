import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import type { DownloadView } from '@domain/transfer-api';
import { routes } from '@/app/routes';
import {
  downloadLoader,
  shouldRevalidateDownload,
  type DownloadLoaderData,
} from '@/features/downloads/download-loader';

const VIEW: DownloadView = {
  id: 'abc1234',
  title: 'report.pdf',
  fileCount: 1,
  totalBytes: 1_500_000,
  files: [{ fileId: 'F123456789', fileName: 'report.pdf', size: 1_500_000 }],
  message: 'Hi',
  senderEmail: 'alice@example.com',
  dateSent: 1_700_000_000_000,
  expiryDate: 1_700_600_000_000,
  totalDownloads: 0,
};

interface Call {
  url: string;
  body: unknown;
}

/** Stands in for the network: records each request and answers with `respond`. */
function stubApi(respond: (call: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = { url, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      return respond(call);
    }),
  );
  return calls;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function load(params: Record<string, string>) {
  return downloadLoader({
    params,
    request: new Request('http://localhost/downloads/x'),
    context: undefined,
    unstable_pattern: '',
  } as never) as Promise<DownloadLoaderData>;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('downloadLoader', () => {
  it('reads the transfer with the recipient of the link', async () => {
    const calls = stubApi(() => json(200, VIEW));
    const data = await load({ id: 'abc1234', user: 'Ab3dEf7h' });
    expect(data.result).toEqual({ kind: 'ready', view: VIEW });
    expect(calls).toEqual([{ url: '/api/getDownload', body: { id: 'abc1234', recipient: 'Ab3dEf7h' } }]);
  });

  it('turns the API errors into page states instead of throwing', async () => {
    stubApi(() => json(401, { error: { code: 'password_required', message: 'This transfer is password protected.' } }));
    expect((await load({ id: 'abc1234' })).result).toEqual({ kind: 'locked', wrong: false });
    stubApi(() =>
      json(410, { error: { code: 'expired', message: 'x', details: { expiryDate: 5, extendable: true } } }),
    );
    expect((await load({ slug: 'abc1234' })).result).toEqual({ kind: 'expired', expiryDate: 5, extendable: true });
    stubApi(() => json(404, { error: { code: 'not_found', message: 'Sorry, this link may have been removed.' } }));
    expect((await load({ id: 'abc1234' })).result).toEqual({ kind: 'notFound' });
  });

  it('does not ask the API about an id that cannot exist', async () => {
    const calls = stubApi(() => json(200, VIEW));
    expect((await load({ id: 'nope' })).result).toEqual({ kind: 'notFound' });
    expect(calls).toEqual([]);
  });

  it('the /d alias and /w land on the download page with their params', async () => {
    const calls = stubApi(() => json(200, VIEW));
    for (const path of ['/d/abc1234/Ab3dEf7h', '/w/abc1234']) {
      const router = createMemoryRouter(routes, { initialEntries: [path] });
      // createMemoryRouter has already started the initial load (calling initialize() again would reload).
      for (let i = 0; i < 100 && !router.state.initialized; i++) await new Promise((r) => setTimeout(r, 20));
      expect(router.state.location.pathname, path).toBe(path);
      const data = Object.values(router.state.loaderData).find(
        (d): d is DownloadLoaderData => !!d && typeof d === 'object' && 'result' in d,
      );
      expect(data?.result, path).toEqual({ kind: 'ready', view: VIEW });
      router.dispose();
    }
    expect(calls.map((c) => c.body)).toEqual([{ id: 'abc1234', recipient: 'Ab3dEf7h' }, { id: 'abc1234' }]);
  });
});

describe('shouldRevalidateDownload', () => {
  const args = (from: string, to: string) =>
    ({
      currentUrl: new URL(from, 'http://x'),
      nextUrl: new URL(to, 'http://x'),
      defaultShouldRevalidate: true,
    }) as never;

  it('keeps the unlocked page for the same address and reloads for another transfer', () => {
    expect(shouldRevalidateDownload(args('/w/abc1234', '/w/abc1234?lng=fr'))).toBe(false);
    expect(shouldRevalidateDownload(args('/w/abc1234', '/w/abc1234'))).toBe(false);
    expect(shouldRevalidateDownload(args('/w/abc1234', '/w/xyz9876'))).toBe(true);
  });
});
