/**
 * Polling while the tab is visible (a download appears within 30 s without a
 * reload; decision in docs/decisions/). One poll at a time: the next is scheduled when the
 * previous settles, so a slow answer never stacks requests. Hidden tab: no timer at all;
 * visible again: one poll at once, then the interval again.
 */
/**
 * NOTIFICATIONS_POLL_MS of functions/domain/dashboard-api.ts (a unit test holds them equal):
 * importing the value from there would bring that module's zod schemas into the bell's chunk,
 * which every signed-in page loads.
 */
export const POLL_MS = 15_000;

export interface PollerDeps {
  isVisible(): boolean;
  /** returns the unsubscribe function */
  onVisibilityChange(listener: () => void): () => void;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export function browserPollerDeps(): PollerDeps {
  return {
    isVisible: () => document.visibilityState === 'visible',
    onVisibilityChange: (listener) => {
      document.addEventListener('visibilitychange', listener);
      return () => document.removeEventListener('visibilitychange', listener);
    },
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

/** Starts polling; the returned function stops it for good (sign-out, unmount). */
export function startVisiblePolling(poll: () => Promise<unknown>, intervalMs: number, deps: PollerDeps): () => void {
  let stopped = false;
  let inFlight = false;
  let timer: unknown = null;

  const cancelTimer = () => {
    if (timer !== null) deps.clearTimer(timer);
    timer = null;
  };

  const schedule = () => {
    cancelTimer();
    if (stopped || inFlight || !deps.isVisible()) return;
    timer = deps.setTimer(run, intervalMs);
  };

  function run() {
    timer = null;
    if (stopped || inFlight || !deps.isVisible()) return;
    inFlight = true;
    // A failed poll is the caller's to report; polling goes on.
    void poll()
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
        schedule();
      });
  }

  const unsubscribe = deps.onVisibilityChange(() => {
    if (deps.isVisible()) {
      cancelTimer();
      run();
    } else {
      cancelTimer();
    }
  });

  run();

  return () => {
    stopped = true;
    cancelTimer();
    unsubscribe();
  };
}
