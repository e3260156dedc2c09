import { useEffect, useRef, type RefObject } from 'react';

/**
 * While `open`, Escape anywhere and a click outside `ref` dismiss a menu or panel: `dismiss` is
 * told which, so a caller can return the focus to its toggle after Escape. The latest `dismiss`
 * is used without re-attaching the listeners on every render.
 */
export function useDismiss(
  open: boolean,
  ref: RefObject<HTMLElement | null>,
  dismiss: (how: 'escape' | 'outside') => void,
): void {
  const latest = useRef(dismiss);
  latest.current = dismiss;
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latest.current('escape');
    };
    const onClick = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) latest.current('outside');
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open, ref]);
}
