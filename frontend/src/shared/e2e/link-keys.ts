/**
 * The fragments (`k=<key>`) of this browser's own end-to-end encrypted link sends, by transfer id,
 * so its dashboard can copy the whole link again. They stay in this browser's storage: the server
 * never has a key. The newest MAX are kept.
 */
const STORE = 'sendbridge.e2e-link-keys';
const MAX = 200;

type Kept = Record<string, { readonly fragment: string; readonly at: number }>;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function read(): Kept {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(STORE) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Kept) : {};
  } catch {
    return {};
  }
}

/** Keeps the fragment of a keyed link (`…#k=…`) for the transfer `id`. */
export function rememberLinkKey(id: string, keyLink: string, now = Date.now()): void {
  const fragment = keyLink.split('#')[1];
  if (!fragment?.startsWith('k=')) return;
  const kept = { ...read(), [id]: { fragment, at: now } };
  const newest = Object.entries(kept)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX);
  try {
    storage()?.setItem(STORE, JSON.stringify(Object.fromEntries(newest)));
  } catch {
    // a full or refused storage only loses the dashboard's copy; the sender has the link
  }
}

/** The link with its key, when this browser sent it; else null. */
export function keyedLinkOf(id: string, link: string): string | null {
  const fragment = read()[id]?.fragment;
  return fragment ? `${link.replace(/#.*$/u, '')}#${fragment}` : null;
}
