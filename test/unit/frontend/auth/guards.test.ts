import { describe, expect, it } from 'vitest';
import { SESSION_FLAG_KEY, type AuthResponse } from '@domain/auth-api';
import { ApiError } from '@/lib/api';
import { canEnterDash, homeEntry, returnPath } from '@/lib/session/guards';
import { SessionStore } from '@/lib/session/session-store';

const USER = {
  _id: 'u1',
  email: 'jane@example.com',
  fullName: 'Jane Doe',
  showLogoNav: false,
  role: 'free',
  status: 'active',
  isTeamMember: false,
  loginCount: 2,
  storageUsed: 0,
  storageLimit: 1,
  storageState: 'ok',
  thisMonthsTransfers: 0,
  monthlyTransferLimit: 10,
  blocked: null,
} as const;

/** A real store whose only outside world is a flag and the answer of GET /refreshToken. */
function store(options: { flag: boolean; refresh?: AuthResponse | ApiError }) {
  const data = new Map<string, string>(options.flag ? [[SESSION_FLAG_KEY, '1']] : []);
  let refreshCalls = 0;
  const s = new SessionStore({
    api: async <T>(path: string): Promise<T> => {
      if (path !== '/refreshToken') throw new Error(`unexpected ${path}`);
      refreshCalls += 1;
      if (options.refresh instanceof ApiError || options.refresh === undefined)
        throw options.refresh ?? new Error('no answer');
      return options.refresh as T;
    },
    flagStorage: {
      getItem: (k) => data.get(k) ?? null,
      setItem: (k, v) => void data.set(k, v),
      removeItem: (k) => void data.delete(k),
    },
    now: () => 0,
    setTimer: () => null,
    clearTimer: () => {},
    reload: () => {},
  });
  return { s, data, refreshCalls: () => refreshCalls };
}

const q = (query = '') => new URLSearchParams(query);
const session: AuthResponse = { accessToken: 'tok', expiresAt: 3_600_000, user: USER };

describe('home entry (spec §2)', () => {
  it('a visitor without the flag stays on home, and nothing is called', async () => {
    const { s, refreshCalls } = store({ flag: false });
    expect(await homeEntry(q(), s)).toBe('stay');
    expect(refreshCalls()).toBe(0);
  });

  it('a flag that renews goes to the dashboard', async () => {
    const { s } = store({ flag: true, refresh: session });
    expect(await homeEntry(q(), s)).toBe('dash');
    expect(s.isLoggedIn()).toBe(true);
  });

  it('a flag that no longer renews is cleared and goes to Login', async () => {
    const { s, data } = store({ flag: true, refresh: new ApiError(401, 'unauthorized', 'no') });
    expect(await homeEntry(q(), s)).toBe('login');
    expect(data.has(SESSION_FLAG_KEY)).toBe(false);
  });

  it('a signed-in user goes to the dashboard without another renewal', async () => {
    const { s, refreshCalls } = store({ flag: false });
    s.completeSignup(session);
    expect(await homeEntry(q(), s)).toBe('dash');
    expect(refreshCalls()).toBe(0);
  });

  it('ref=trial_ending goes to Login for anyone', async () => {
    expect(await homeEntry(q('ref=trial_ending'), store({ flag: false }).s)).toBe('login');
    const signedIn = store({ flag: false }).s;
    signedIn.completeSignup(session);
    expect(await homeEntry(q('ref=trial_ending'), signedIn)).toBe('login');
  });
});

describe('dashboard guard (spec §2)', () => {
  it('lets a signed-in user in', async () => {
    const { s } = store({ flag: false });
    s.completeSignup(session);
    expect(await canEnterDash(s)).toBe(true);
  });

  it('renews a flagged session before letting in', async () => {
    const { s, refreshCalls } = store({ flag: true, refresh: session });
    expect(await canEnterDash(s)).toBe(true);
    expect(refreshCalls()).toBe(1);
  });

  it('keeps out a visitor without a session', async () => {
    expect(await canEnterDash(store({ flag: false }).s)).toBe(false);
    expect(await canEnterDash(store({ flag: true, refresh: new ApiError(401, 'unauthorized', 'no') }).s)).toBe(false);
  });

  it('the way back is the full path with its query', () => {
    expect(returnPath(new URL('https://app.example/dash/transfers/abc?filter=active#x'))).toBe(
      '/dash/transfers/abc?filter=active',
    );
  });
});
