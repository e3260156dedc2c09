/**
 * Where a visitor goes on entering home or the dashboard (spec §2). Pure decisions over the
 * session store; routes.tsx turns them into redirects.
 */
import type { SessionStore } from './session-store';

type GuardStore = Pick<SessionStore, 'isLoggedIn' | 'hasFlag' | 'ensure'>;

export type HomeEntry = 'stay' | 'dash' | 'login';

/**
 * Home: ?ref=trial_ending goes to Login; a signed-in user, or one whose stored flag renews,
 * goes to the dashboard; a flag that fails to renew has been cleared and sends to Login.
 * Everyone else stays (only logged-in users are redirected away from home).
 */
export async function homeEntry(search: URLSearchParams, store: GuardStore): Promise<HomeEntry> {
  if (search.get('ref') === 'trial_ending') return 'login';
  if (store.isLoggedIn()) return 'dash';
  if (!store.hasFlag()) return 'stay';
  return (await store.ensure()) ? 'dash' : 'login';
}

/** Dashboard: signed in, or a stored flag that renews. Otherwise the caller sends to Login. */
export function canEnterDash(store: GuardStore): Promise<boolean> {
  return store.ensure();
}

/** The address Login should return to: the full path with its query (spec §2). */
export function returnPath(url: URL): string {
  return url.pathname + url.search;
}
