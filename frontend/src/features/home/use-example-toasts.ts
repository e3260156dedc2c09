import { useEffect, useState } from 'react';
import { useSession } from '@/lib/session/session-provider';
import {
  EXAMPLE_TOAST_GAP_MS,
  EXAMPLE_TOAST_VISIBLE_MS,
  EXAMPLE_TOASTS_HIDDEN_KEY,
  showExampleToasts,
  toastAt,
} from '@/features/home/example-toasts';

function readHidden(): boolean {
  try {
    return sessionStorage.getItem(EXAMPLE_TOASTS_HIDDEN_KEY) === 'hidden';
  } catch {
    return false;
  }
}

function usePrefersReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const onChange = () => setReduced(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/**
 * Which example toast shows now (null: none), on the toasts' clock; `hide` hides them for the
 * visit. Never for a signed-in user nor under prefers-reduced-motion.
 */
export function useExampleToasts() {
  const { status } = useSession();
  const reducedMotion = usePrefersReducedMotion();
  const [hidden, setHidden] = useState(readHidden);
  const [index, setIndex] = useState<number | null>(null);
  const on = showExampleToasts({ reducedMotion, signedIn: status === 'authenticated', hidden });

  useEffect(() => {
    if (!on) {
      setIndex(null);
      return;
    }
    const started = performance.now();
    const period = EXAMPLE_TOAST_GAP_MS + EXAMPLE_TOAST_VISIBLE_MS;
    let timer = 0;
    const tick = () => {
      const elapsed = performance.now() - started;
      setIndex(toastAt(elapsed));
      const within = elapsed % period;
      // wake at the next edge: the end of the gap or of the toast
      timer = window.setTimeout(tick, (within < EXAMPLE_TOAST_GAP_MS ? EXAMPLE_TOAST_GAP_MS : period) - within + 1);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [on]);

  const hide = () => {
    try {
      sessionStorage.setItem(EXAMPLE_TOASTS_HIDDEN_KEY, 'hidden');
    } catch {
      // private mode: hidden for this page only
    }
    setHidden(true);
  };
  return { index: on ? index : null, hide };
}
