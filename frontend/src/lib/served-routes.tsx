import { createContext, useContext, type ReactNode } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

/**
 * The router's route table, so shared UI can ask whether a screen exists before linking to
 * it (screens owned by later issues are not linked until they are served).
 */
const ServedRoutesContext = createContext<readonly RouteObject[]>([]);

export function ServedRoutesProvider({ routes, children }: { routes: readonly RouteObject[]; children: ReactNode }) {
  return <ServedRoutesContext.Provider value={routes}>{children}</ServedRoutesContext.Provider>;
}

/** True when `path` is matched by a real route, not by the catch-all that sends it to /404/. */
export function isServedPath(routes: readonly RouteObject[], path: string): boolean {
  const matches = matchRoutes([...routes], path);
  const deepest = matches?.at(-1);
  return deepest !== undefined && deepest.route.path !== '*';
}

export function useIsServed(path: string): boolean {
  return isServedPath(useContext(ServedRoutesContext), path);
}
