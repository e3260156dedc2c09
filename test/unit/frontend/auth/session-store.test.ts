import { describe, expect, it } from 'vitest';
import { SESSION_FLAG_KEY, type AuthResponse, type SessionUser } from '@domain/auth-api';
import { ApiError, type ApiInit } from '@/lib/api';
import {
  MIN_REFRESH_DELAY_MS,
  REFRESH_AHEAD_MS,
  REFRESH_RETRY_MS,
  SessionStore,
  type ApiCall,
} from '@/lib/session/session-store';

const NOW = Date.UTC(2025, 4, 1, 12);
const HOUR = 3_600_000;

function user(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    _id: 'u1',
    email: 'jane@example.com',
    fullName: 'Jane Doe',
    showLogoNav: false,
    role: 'free',
    status: 'active',
    isTeamMember: false,
    loginCount: 1,
    storageUsed: 0,
    storageLimit: 10e9,
    storageState: 'ok',
    thisMonthsTransfers: 0,
    monthlyTransferLimit: 10,
    blocked: null,
    ...overrides,
  };
}

function auth(token: string, expiresAt = NOW + HOUR, who: SessionUser = user()): AuthResponse {
  return { accessToken: token, expiresAt, user: who };
}

type Reply = unknown | ApiError | ((init: ApiInit) => unknown);

/**
 * The API as the server would answer: a queue of replies per path (an ApiError is thrown),
 * every call recorded. Unanswered paths fail loudly.
 */
class FakeApi {
  readonly calls: { path: string; init: ApiInit }[] = [];
  private readonly replies = new Map<string, Reply[]>();
  private readonly gates = new Map<string, Promise<void>>();

  on(path: string, ...replies: Reply[]): this {
    this.replies.set(path, [...(this.replies.get(path) ?? []), ...replies]);
    return this;
  }

  /** The next call to `path` waits until `release` is called. */
  hold(path: string): () => void {
    let release!: () => void;
    this.gates.set(path, new Promise<void>((resolve) => (release = resolve)));
    return release;
  }

  readonly call: ApiCall = async <T>(path: string, init: ApiInit = {}): Promise<T> => {
    this.calls.push({ path, init });
    const gate = this.gates.get(path);
    if (gate) {
      this.gates.delete(path);
      await gate;
    }
    const queue = this.replies.get(path) ?? [];
    const reply = queue.shift();
    if (reply === undefined) throw new Error(`unexpected call ${path}`);
    const value = typeof reply === 'function' ? (reply as (init: ApiInit) => unknown)(init) : reply;
    if (value instanceof ApiError) throw value;
    return value as T;
  };

  count(path: string): number {
    return this.calls.filter((c) => c.path === path).length;
  }
}

class MemoryStorage {
  readonly data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

interface Harness {
  store: SessionStore;
  api: FakeApi;
  storage: MemoryStorage;
  timers: { run: () => void; ms: number; cleared: boolean }[];
  reloads: number;
  clock: { now: number };
}

function harness(options: { flag?: boolean } = {}): Harness {
  const api = new FakeApi();
  const storage = new MemoryStorage();
  if (options.flag) storage.setItem(SESSION_FLAG_KEY, '1');
  const h = { api, storage, timers: [], reloads: 0, clock: { now: NOW } } as unknown as Harness;
  h.store = new SessionStore({
    api: api.call,
    flagStorage: storage,
    now: () => h.clock.now,
    setTimer: (run, ms) => {
      // A timer that fired is no longer pending.
      const timer = { run: () => ((timer.cleared = true), run()), ms, cleared: false };
      h.timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
    reload: () => {
      h.reloads += 1;
    },
  });
  return h;
}

const pending = (h: Harness) => h.timers.filter((t) => !t.cleared);
const unauthorized = (code = 'unauthorized') => new ApiError(401, code, 'Unauthorized');
const offline = () => new ApiError(0, 'network_error', 'Failed to fetch');

describe('session store: start', () => {
  it('starts anonymous without the flag and unknown with it', () => {
    expect(harness().store.getSnapshot().status).toBe('anonymous');
    expect(harness({ flag: true }).store.getSnapshot().status).toBe('unknown');
  });

  it('ensure() without the flag settles anonymous without calling the API', async () => {
    const h = harness();
    expect(await h.store.ensure()).toBe(false);
    expect(h.api.calls).toEqual([]);
  });

  it('ensure() with the flag renews through the cookie and signs in', async () => {
    const h = harness({ flag: true });
    h.api.on('/refreshToken', auth('tok-1'));

    expect(await h.store.ensure()).toBe(true);

    const snap = h.store.getSnapshot();
    expect(snap).toMatchObject({ status: 'authenticated', accessToken: 'tok-1', user: { email: 'jane@example.com' } });
    expect(h.store.isLoggedIn()).toBe(true);
  });

  it('concurrent ensure() and refresh() calls share one renewal', async () => {
    const h = harness({ flag: true });
    h.api.on('/refreshToken', auth('tok-1'));

    const results = await Promise.all([h.store.ensure(), h.store.ensure(), h.store.refresh()]);

    expect(results).toEqual([true, true, true]);
    expect(h.api.count('/refreshToken')).toBe(1);
  });

  it('a refused renewal clears the flag and leaves the visitor anonymous', async () => {
    const h = harness({ flag: true });
    h.api.on('/refreshToken', unauthorized());

    expect(await h.store.ensure()).toBe(false);

    expect(h.store.getSnapshot().status).toBe('anonymous');
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBeNull();
  });

  it('a renewal that cannot reach the server, with no token in hand, also clears the flag (spec §8)', async () => {
    const h = harness({ flag: true });
    h.api.on('/refreshToken', offline());

    expect(await h.store.ensure()).toBe(false);
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBeNull();
  });

  it('an answer without a token or without the user email is not a session (spec §4)', async () => {
    const h = harness({ flag: true });
    h.api.on('/refreshToken', { accessToken: '', expiresAt: NOW + HOUR, user: user() });
    expect(await h.store.ensure()).toBe(false);

    const h2 = harness({ flag: true });
    h2.api.on('/refreshToken', auth('tok', NOW + HOUR, user({ email: '' })));
    expect(await h2.store.ensure()).toBe(false);
    expect(h2.store.getSnapshot().status).toBe('anonymous');
  });
});

describe('session store: login, sign-up, logout', () => {
  it('login posts the credentials, stores the token in memory, sets the flag and the user', async () => {
    const h = harness();
    const seen: string[] = [];
    h.store.subscribe(() => seen.push(h.store.getSnapshot().status));
    h.api.on('/combinedAuth', (init: ApiInit) => {
      expect(init).toMatchObject({ method: 'POST', body: { email: 'jane@example.com', password: 'secret1' } });
      return auth('tok-login');
    });

    const who = await h.store.login('jane@example.com', 'secret1');

    expect(who.email).toBe('jane@example.com');
    expect(h.store.getSnapshot()).toMatchObject({ status: 'authenticated', accessToken: 'tok-login' });
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBe('1');
    // The flag is the only thing in storage: the token never leaves memory.
    expect([...h.storage.data.values()].join()).not.toContain('tok-login');
    expect(seen.at(-1)).toBe('authenticated');
  });

  it('a failed login throws the API error and leaves the visitor signed out', async () => {
    const h = harness();
    h.api.on('/combinedAuth', unauthorized('auth_failed'));

    await expect(h.store.login('jane@example.com', 'wrong')).rejects.toMatchObject({
      status: 401,
      code: 'auth_failed',
    });
    expect(h.store.getSnapshot().status).toBe('anonymous');
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBeNull();
  });

  it('login resets an earlier session before signing in (spec §4)', async () => {
    const h = harness();
    h.store.completeSignup(auth('old'));
    const release = h.api.hold('/combinedAuth');
    h.api.on('/combinedAuth', auth('new', NOW + HOUR, user({ email: 'other@example.com' })));

    const login = h.store.login('other@example.com', 'secret1');
    expect(h.store.getSnapshot().accessToken).toBeNull();
    release();
    await login;

    expect(h.store.getSnapshot()).toMatchObject({ accessToken: 'new', user: { email: 'other@example.com' } });
  });

  it('completeSignup adopts the sign-up answer as the session', () => {
    const h = harness();
    expect(h.store.completeSignup(auth('tok-signup'))).toBe(true);
    expect(h.store.getSnapshot()).toMatchObject({ status: 'authenticated', accessToken: 'tok-signup' });
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBe('1');
  });

  it('logout calls GET /logout with the token, clears flag and memory, then reloads', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok-1'));
    h.api.on('/logout', {});

    await h.store.logout();

    expect(h.api.calls.at(-1)).toMatchObject({ path: '/logout', init: { accessToken: 'tok-1' } });
    expect(h.store.getSnapshot().status).toBe('anonymous');
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBeNull();
    expect(h.reloads).toBe(1);
    expect(pending(h)).toEqual([]);
  });

  it('logout still signs out locally when the server cannot be reached', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok-1'));
    h.api.on('/logout', offline());

    await h.store.logout();

    expect(h.store.getSnapshot().status).toBe('anonymous');
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBeNull();
    expect(h.reloads).toBe(1);
  });

  it('a renewal answered after a logout started cannot sign the user back in', async () => {
    const h = harness({ flag: true });
    const release = h.api.hold('/refreshToken');
    h.api.on('/refreshToken', auth('late'));
    h.api.on('/logout', {});

    const renewal = h.store.refresh();
    await h.store.logout();
    release();
    await renewal;

    expect(h.store.getSnapshot().status).toBe('anonymous');
    expect(h.storage.getItem(SESSION_FLAG_KEY)).toBeNull();
  });

  it('setUser replaces the user of a signed-in session only', () => {
    const h = harness();
    h.store.setUser(user({ fullName: 'Nobody' }));
    expect(h.store.getSnapshot().user).toBeNull();

    h.store.completeSignup(auth('tok'));
    h.store.setUser(user({ fullName: 'Jane Q. Doe' }));
    expect(h.store.getSnapshot().user?.fullName).toBe('Jane Q. Doe');
  });
});

describe('session store: renewal ahead of expiry', () => {
  it('schedules a renewal a minute before the token expires', () => {
    const h = harness();
    h.store.completeSignup(auth('tok', NOW + HOUR));
    expect(pending(h).map((t) => t.ms)).toEqual([HOUR - REFRESH_AHEAD_MS]);
  });

  it('never schedules sooner than the minimum delay (a skewed clock cannot loop)', () => {
    const h = harness();
    h.store.completeSignup(auth('tok', NOW - HOUR));
    expect(pending(h).map((t) => t.ms)).toEqual([MIN_REFRESH_DELAY_MS]);
  });

  it('the timer renews the token and schedules the next renewal', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok-1', NOW + HOUR));
    h.api.on('/refreshToken', auth('tok-2', NOW + 2 * HOUR));

    h.clock.now = NOW + HOUR - REFRESH_AHEAD_MS;
    pending(h)[0]?.run();
    await h.store.refresh(); // joins the renewal the timer started

    expect(h.store.getSnapshot().accessToken).toBe('tok-2');
    expect(h.api.count('/refreshToken')).toBe(1);
    // new expiry NOW+2h, seen at NOW+1h-1min: due again one minute before it, an hour from now
    expect(pending(h).map((t) => t.ms)).toEqual([HOUR]);
  });

  it('a background renewal that hits a network failure keeps the still-valid token and retries later', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok-1', NOW + HOUR));
    h.api.on('/refreshToken', offline());

    expect(await h.store.refresh()).toBe(true);

    expect(h.store.getSnapshot()).toMatchObject({ status: 'authenticated', accessToken: 'tok-1' });
    expect(pending(h).map((t) => t.ms)).toEqual([REFRESH_RETRY_MS]);
  });

  it('a background renewal the server refuses ends the session', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok-1', NOW + HOUR));
    h.api.on('/refreshToken', unauthorized());

    expect(await h.store.refresh()).toBe(false);
    expect(h.store.getSnapshot().status).toBe('anonymous');
    expect(pending(h)).toEqual([]);
  });
});

describe('session store: authedFetch', () => {
  it('sends the access token', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok-1'));
    h.api.on('/folderSize', (init: ApiInit) => ({ token: init.accessToken }));

    expect(await h.store.authedFetch('/folderSize', { method: 'POST', body: {} })).toEqual({ token: 'tok-1' });
  });

  it('waits for the session to settle when only the flag is known', async () => {
    const h = harness({ flag: true });
    h.api.on('/refreshToken', auth('tok-1'));
    h.api.on('/me', (init: ApiInit) => user({ fullName: String(init.accessToken) }));

    const me = await h.store.authedFetch<SessionUser>('/me');

    expect(me.fullName).toBe('tok-1');
  });

  it('refuses with 401 not_signed_in when there is no session', async () => {
    const h = harness();
    await expect(h.store.authedFetch('/me')).rejects.toMatchObject({ status: 401, code: 'not_signed_in' });
    expect(h.api.calls).toEqual([]);
  });

  it('on a 401 renews once and retries with the new token', async () => {
    const h = harness();
    h.store.completeSignup(auth('stale'));
    h.api.on('/me', unauthorized(), (init: ApiInit) => user({ fullName: String(init.accessToken) }));
    h.api.on('/refreshToken', auth('fresh'));

    const me = await h.store.authedFetch<SessionUser>('/me');

    expect(me.fullName).toBe('fresh');
    expect(h.api.calls.map((c) => c.path)).toEqual(['/me', '/refreshToken', '/me']);
  });

  it('a second 401 after the renewal is final (no loop)', async () => {
    const h = harness();
    h.store.completeSignup(auth('stale'));
    h.api.on('/me', unauthorized(), unauthorized());
    h.api.on('/refreshToken', auth('fresh'));

    await expect(h.store.authedFetch('/me')).rejects.toMatchObject({ status: 401 });
    expect(h.api.count('/me')).toBe(2);
    expect(h.api.count('/refreshToken')).toBe(1);
  });

  it('a 401 whose renewal is refused signs out and rethrows', async () => {
    const h = harness();
    h.store.completeSignup(auth('stale'));
    h.api.on('/me', unauthorized());
    h.api.on('/refreshToken', unauthorized());

    await expect(h.store.authedFetch('/me')).rejects.toMatchObject({ status: 401 });
    expect(h.store.getSnapshot().status).toBe('anonymous');
  });

  it('other errors pass through without a renewal', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok'));
    h.api.on('/me', new ApiError(403, 'forbidden', 'Forbidden'));

    await expect(h.store.authedFetch('/me')).rejects.toMatchObject({ status: 403 });
    expect(h.api.count('/refreshToken')).toBe(0);
  });

  it('reloadUser stores the answer of GET /me', async () => {
    const h = harness();
    h.store.completeSignup(auth('tok'));
    h.api.on('/me', user({ storageUsed: 42 }));

    await h.store.reloadUser();

    expect(h.store.getSnapshot().user?.storageUsed).toBe(42);
  });
});

describe('session store: renewals across tabs', () => {
  /** Two tabs of one browser: separate stores, one shared lock (as navigator.locks is per origin). */
  function sharedLock() {
    let tail: Promise<unknown> = Promise.resolve();
    const exclusive = <T>(run: () => Promise<T>): Promise<T> => {
      const next = tail.then(run);
      tail = next.catch(() => undefined);
      return next;
    };
    return { exclusive };
  }

  it('two tabs renewing at once send the cookie one after the other, never together', async () => {
    const lock = sharedLock();
    let inFlight = 0;
    let overlapped = false;
    const serve = (token: string) => async () => {
      inFlight += 1;
      overlapped ||= inFlight > 1;
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return auth(token);
    };
    const tab = (token: string) =>
      new SessionStore({
        api: (async <T>(path: string) => {
          if (path !== '/refreshToken') throw new Error(`unexpected ${path}`);
          return (await serve(token)()) as T;
        }) as ApiCall,
        flagStorage: null,
        now: () => NOW,
        setTimer: () => null,
        clearTimer: () => undefined,
        reload: () => undefined,
        exclusive: lock.exclusive,
      });
    const [a, b] = [tab('tok-a'), tab('tok-b')];

    expect(await Promise.all([a.refresh(), b.refresh()])).toEqual([true, true]);
    expect(overlapped).toBe(false);
    expect(a.getSnapshot().accessToken).toBe('tok-a');
    expect(b.getSnapshot().accessToken).toBe('tok-b');
  });
});
