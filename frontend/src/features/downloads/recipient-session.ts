/**
 * A verified recipient's session token, kept for the tab (sessionStorage) so a reload does not
 * ask for a new code; the server checks it against the live access list on every call.
 */
const keyOf = (id: string) => `sendbridge.access.${id}`;

export function storedAccess(id: string): string | undefined {
  try {
    return sessionStorage.getItem(keyOf(id)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeAccess(id: string, token: string | undefined): void {
  try {
    if (token === undefined) sessionStorage.removeItem(keyOf(id));
    else sessionStorage.setItem(keyOf(id), token);
  } catch {
    // storage refused (private mode): the session lives in memory only
  }
}
