import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthResponse, SessionUser } from '@domain/auth-api';
import { SESSION_FLAG_KEY } from '@domain/session-flag';
import { sessionStore } from './session';
import type { AuthedInit, SessionStatus, SessionStore } from './session-store';

const SessionContext = createContext<SessionStore | null>(null);

/**
 * Puts the session in React's reach and settles it once on start (a flag from an earlier
 * visit triggers one renewal). It also follows other tabs: when one signs out (the flag goes)
 * this tab forgets its session; when one signs in, this tab picks the session up.
 */
export function SessionProvider({ store, children }: { store?: SessionStore; children: ReactNode }) {
  const value = store ?? sessionStore();

  useEffect(() => {
    void value.ensure();
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SESSION_FLAG_KEY) return;
      if (event.newValue === null) value.forget();
      else void value.ensure();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [value]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export interface Session {
  readonly status: SessionStatus;
  readonly user: SessionUser | null;
  readonly accessToken: string | null;
  /** POST /combinedAuth; throws ApiError (401 auth_failed, or status 0 for network trouble) */
  login(email: string, password: string): Promise<SessionUser>;
  /** adopt the AuthResponse of POST /signup2 */
  completeSignup(auth: AuthResponse): boolean;
  /** renew now; false means signed out */
  refresh(): Promise<boolean>;
  /** GET /logout, clear the flag and memory, reload the page */
  logout(): Promise<void>;
  setUser(user: SessionUser): void;
  /** GET /me and store the answer */
  reloadUser(): Promise<SessionUser>;
  authedFetch<T>(path: string, init?: AuthedInit): Promise<T>;
}

/** The session for components; works without a provider too (the app's one store). */
export function useSession(): Session {
  const store = useContext(SessionContext) ?? sessionStore();
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return useMemo(
    () => ({
      status: snapshot.status,
      user: snapshot.user,
      accessToken: snapshot.accessToken,
      login: (email, password) => store.login(email, password),
      completeSignup: (auth) => store.completeSignup(auth),
      refresh: () => store.refresh(),
      logout: () => store.logout(),
      setUser: (user) => store.setUser(user),
      reloadUser: () => store.reloadUser(),
      authedFetch: (path, init) => store.authedFetch(path, init),
    }),
    [store, snapshot],
  );
}
