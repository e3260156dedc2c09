/**
 * The signed-in session (spec §4, architecture §6), framework-free so loaders, hooks and
 * tests share one instance. The access token lives only in memory; the refresh token is the
 * httpOnly cookie the browser sends to /api by itself; localStorage holds only
 * SESSION_FLAG_KEY, a non-secret hint that a refresh is worth trying.
 *
 *   status   'unknown' (flag present, not checked yet) | 'anonymous' | 'authenticated'
 *   ensure() settle the session: true when signed in (refreshes once if the flag says so)
 *   refresh() renew with the cookie now; false ends the session and clears the flag
 *   login(), completeSignup(auth), logout() (GET /logout, clear, reload), setUser(user)
 *   authedFetch(path, init) apiFetch with the token; a 401 renews once and retries
 */
import type { AuthResponse, SessionUser } from '@domain/auth-api';
import { SESSION_FLAG_KEY } from '@domain/session-flag';
import { ApiError, type ApiInit } from '@/lib/api';

export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated';

export interface SessionSnapshot {
  readonly status: SessionStatus;
  readonly user: SessionUser | null;
  readonly accessToken: string | null;
  /** epoch ms at which the access token expires */
  readonly expiresAt: number | null;
}

export type ApiCall = <T>(path: string, init?: ApiInit) => Promise<T>;
export type AuthedInit = Omit<ApiInit, 'accessToken'>;

export interface FlagStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SessionDeps {
  readonly api: ApiCall;
  /** null where storage is unavailable (tests in node, blocked storage) */
  readonly flagStorage: FlagStorage | null;
  readonly now: () => number;
  readonly setTimer: (run: () => void, ms: number) => unknown;
  readonly clearTimer: (handle: unknown) => void;
  /** spec §4: logout reloads the page */
  readonly reload: () => void;
  /**
   * Runs a renewal while no other tab of this browser renews: each renewal rotates the shared
   * cookie, and the server ends the session when one cookie is presented twice. Absent: no lock.
   */
  readonly exclusive?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** Renew this long before the access token expires. */
export const REFRESH_AHEAD_MS = 60_000;
/** The earliest a renewal is scheduled, so a skewed client clock cannot start a refresh loop. */
export const MIN_REFRESH_DELAY_MS = 15_000;
/** A background renewal that failed for lack of network is tried again after this. */
export const REFRESH_RETRY_MS = 30_000;
const MAX_TIMER_MS = 2_147_483_647;
/** Logout should not hang on a dead network: one retry, then the local state goes anyway. */
const LOGOUT_RETRIES = 1;

const ANONYMOUS: SessionSnapshot = { status: 'anonymous', user: null, accessToken: null, expiresAt: null };
const UNKNOWN: SessionSnapshot = { ...ANONYMOUS, status: 'unknown' };

/** The server refused the credentials or the cookie (a definite answer, unlike a network failure). */
function isRejection(err: unknown): boolean {
  return err instanceof ApiError && err.status >= 400 && err.status < 500;
}

export class SessionStore {
  private snapshot: SessionSnapshot;
  private readonly listeners = new Set<() => void>();
  private inflight: Promise<boolean> | null = null;
  private timer: unknown = null;
  /** Bumped by login, sign-up and logout, so a late refresh answer cannot overwrite newer state. */
  private epoch = 0;

  constructor(private readonly deps: SessionDeps) {
    this.snapshot = this.hasFlag() ? UNKNOWN : ANONYMOUS;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SessionSnapshot => this.snapshot;

  /** Spec §4: logged in means the user's email and a token are both present. */
  isLoggedIn(): boolean {
    return Boolean(this.snapshot.user?.email && this.snapshot.accessToken);
  }

  hasFlag(): boolean {
    try {
      return this.deps.flagStorage?.getItem(SESSION_FLAG_KEY) != null;
    } catch {
      return false;
    }
  }

  /** True once signed in; with only the flag, renews once (shared with any renewal under way). */
  ensure(): Promise<boolean> {
    if (this.isLoggedIn()) return Promise.resolve(true);
    if (this.inflight) return this.inflight;
    if (!this.hasFlag()) {
      if (this.snapshot.status !== 'anonymous') this.set(ANONYMOUS);
      return Promise.resolve(false);
    }
    return this.refresh();
  }

  /**
   * Renews the access token with the refresh cookie. One renewal at a time: concurrent callers
   * (the home loader, the provider, a 401 retry) share it. A refusal, or a failure while no
   * valid token is left, ends the session and clears the flag (spec §8); a network failure
   * while the current token still works keeps the session and tries again later.
   */
  refresh(): Promise<boolean> {
    if (this.inflight) return this.inflight;
    const epoch = this.epoch;
    const run = (async () => {
      try {
        const renew = () => this.deps.api<AuthResponse>('/refreshToken');
        const auth = await (this.deps.exclusive ? this.deps.exclusive(renew) : renew());
        if (epoch !== this.epoch) return this.isLoggedIn();
        return this.apply(auth);
      } catch (err) {
        if (epoch !== this.epoch) return this.isLoggedIn();
        if (!isRejection(err) && this.tokenStillValid()) {
          this.schedule(REFRESH_RETRY_MS);
          return true;
        }
        this.clear();
        return false;
      }
    })();
    this.inflight = run;
    void run.finally(() => {
      if (this.inflight === run) this.inflight = null;
    });
    return run;
  }

  /** POST /combinedAuth. Spec §4: resets state, stores the token, then sets the user. Throws ApiError. */
  async login(email: string, password: string): Promise<SessionUser> {
    this.epoch += 1;
    this.cancelTimer();
    this.set(ANONYMOUS);
    const auth = await this.deps.api<AuthResponse>('/combinedAuth', { method: 'POST', body: { email, password } });
    this.epoch += 1;
    if (!this.apply(auth)) throw new ApiError(502, 'bad_auth_response', 'The sign-in answer carried no session');
    return auth.user;
  }

  /** Adopts the session that POST /signup2 (or a team invite) answered with. */
  completeSignup(auth: AuthResponse): boolean {
    this.epoch += 1;
    return this.apply(auth);
  }

  /** GET /logout revokes the cookie; the flag and memory go even if that call fails; then reload. */
  async logout(): Promise<void> {
    this.epoch += 1;
    this.cancelTimer();
    const token = this.snapshot.accessToken ?? undefined;
    try {
      await this.deps.api('/logout', { retries: LOGOUT_RETRIES, accessToken: token });
    } catch {
      // The cookie is httpOnly: only the server can drop it. Local sign-out still happens.
    }
    this.clear();
    this.deps.reload();
  }

  /** Replaces the signed-in user (after a profile change); ignored when signed out. */
  setUser(user: SessionUser): void {
    if (this.snapshot.status !== 'authenticated') return;
    this.set({ ...this.snapshot, user });
  }

  /** Forgets the session in this tab only (another tab signed out: the flag is gone). */
  forget(): void {
    this.epoch += 1;
    this.cancelTimer();
    this.set(ANONYMOUS);
  }

  /**
   * apiFetch for JWT routes. Waits for an unsettled session; a 401 (the token expired while
   * the tab slept, or was revoked) renews once and retries once.
   */
  async authedFetch<T>(path: string, init: AuthedInit = {}): Promise<T> {
    if (!this.snapshot.accessToken && !(await this.ensure())) {
      throw new ApiError(401, 'not_signed_in', 'Not signed in');
    }
    const token = this.snapshot.accessToken as string;
    try {
      return await this.deps.api<T>(path, { ...init, accessToken: token });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      // Someone else may have renewed meanwhile; otherwise renew now.
      if (this.snapshot.accessToken === token && !(await this.refresh())) throw err;
      const fresh = this.snapshot.accessToken;
      if (!fresh || fresh === token) throw err;
      return this.deps.api<T>(path, { ...init, accessToken: fresh });
    }
  }

  /** GET /me: reloads the signed-in user (storage used, role after checkout). */
  async reloadUser(): Promise<SessionUser> {
    const user = await this.authedFetch<SessionUser>('/me');
    this.setUser(user);
    return user;
  }

  /** Stops the renewal timer (tests, hot reload). */
  dispose(): void {
    this.cancelTimer();
    this.listeners.clear();
  }

  private apply(auth: AuthResponse): boolean {
    if (!auth?.accessToken || !auth.user?.email) {
      this.clear();
      return false;
    }
    this.writeFlag(true);
    this.set({ status: 'authenticated', user: auth.user, accessToken: auth.accessToken, expiresAt: auth.expiresAt });
    this.schedule(auth.expiresAt - this.deps.now() - REFRESH_AHEAD_MS);
    return true;
  }

  private clear(): void {
    this.cancelTimer();
    this.writeFlag(false);
    this.set(ANONYMOUS);
  }

  private tokenStillValid(): boolean {
    const { accessToken, expiresAt } = this.snapshot;
    return accessToken !== null && expiresAt !== null && expiresAt > this.deps.now();
  }

  private schedule(delayMs: number): void {
    this.cancelTimer();
    const delay = Math.min(MAX_TIMER_MS, Math.max(MIN_REFRESH_DELAY_MS, Number.isFinite(delayMs) ? delayMs : 0));
    this.timer = this.deps.setTimer(() => {
      this.timer = null;
      void this.refresh();
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
  }

  private writeFlag(present: boolean): void {
    try {
      if (present) this.deps.flagStorage?.setItem(SESSION_FLAG_KEY, '1');
      else this.deps.flagStorage?.removeItem(SESSION_FLAG_KEY);
    } catch {
      // Storage can be full or blocked; the in-memory session still works for this page.
    }
  }

  private set(next: SessionSnapshot): void {
    if (next === this.snapshot) return;
    this.snapshot = next;
    for (const listener of [...this.listeners]) listener();
  }
}
