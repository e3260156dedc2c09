/**
 * The app's one session (see session-store.ts for the API). Route loaders use `sessionStore()`;
 * components use `useSession()` from session-provider.tsx; feature API modules call
 * `authedFetch(path, init)` for JWT routes, e.g. `authedFetch<FolderSizeResponse>('/folderSize', { method: 'POST', body: {} })`.
 */
import { apiFetch } from '@/lib/api';
import { SessionStore, type AuthedInit, type FlagStorage, type SessionDeps } from './session-store';

function browserStorage(): FlagStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Reading localStorage throws when the browser blocks site data.
    return null;
  }
}

/** Web Locks: one renewal at a time across the tabs of this origin (absent in old browsers: no lock). */
const REFRESH_LOCK = 'sb-session-refresh';
function crossTabExclusive(): SessionDeps['exclusive'] {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return undefined;
  return <T>(run: () => Promise<T>) => locks.request(REFRESH_LOCK, run) as Promise<T>;
}

export function browserSessionDeps(): SessionDeps {
  const exclusive = crossTabExclusive();
  return {
    ...(exclusive ? { exclusive } : {}),
    api: apiFetch,
    flagStorage: browserStorage(),
    now: () => Date.now(),
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    reload: () => window.location.reload(),
  };
}

let store: SessionStore | null = null;

/** Created on first use, so importing this module touches no browser API. */
export function sessionStore(): SessionStore {
  store ??= new SessionStore(browserSessionDeps());
  return store;
}

/** apiFetch with the session's access token; a 401 renews the session once and retries. */
export function authedFetch<T>(path: string, init: AuthedInit = {}): Promise<T> {
  return sessionStore().authedFetch<T>(path, init);
}
