import { useLayoutEffect } from 'react';

/** The User Timing mark a screen leaves once React has taken it over: `screen-ready:<screen>`. */
export const screenReadyMark = (screen: string) => `screen-ready:${screen}`;

/**
 * Marks the moment the screen's first render is committed (hydrated, on a prerendered page),
 * once per page load. Layout effects run before any passive effect, so everything the page defers
 * to later (idle work, lazy extras) starts after the mark: what a first load costs is then what
 * was asked for before it, on a fast machine or a loaded one alike.
 */
export function useScreenReady(screen: string): void {
  useLayoutEffect(() => {
    const name = screenReadyMark(screen);
    if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
  }, [screen]);
}
