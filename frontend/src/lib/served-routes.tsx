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

/**
 * Answers per route table, by path: each answer flattens and ranks the whole table
 * (`matchRoutes`), and the table does not change while the app runs.
 */
const answers = new WeakMap<readonly RouteObject[], Map<string, boolean>>();

function servedIn(routes: readonly RouteObject[], path: string): boolean {
  let known = answers.get(routes);
  if (!known) {
    known = new Map();
    answers.set(routes, known);
  }
  let served = known.get(path);
  if (served === undefined) {
    served = isServedPath(routes, path);
    known.set(path, served);
  }
  return served;
}

export function useIsServed(path: string): boolean {
  return servedIn(useContext(ServedRoutesContext), path);
}

/** A check to call only where an answer is needed (the account menu of a signed-in user). */
export function useServedCheck(): (path: string) => boolean {
  const routes = useContext(ServedRoutesContext);
  return (path) => servedIn(routes, path);
}
