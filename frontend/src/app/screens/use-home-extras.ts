import { useEffect, useState } from 'react';
import { whenIdle } from '@/lib/when-idle';
import type { HomeExtras } from '@/features/home/components/home-extras';

/**
 * The formats strip and the example toasts (components/home-extras.tsx) with their
 * catalogue; nothing of them is in a first load. Wide screens get them once the page has loaded
 * and the browser is idle; narrow ones (no toasts there, the strip far below the fold) on the
 * first scroll, so a phone's first view does no late work at all.
 */
export function useHomeExtras(): HomeExtras | null {
  const [extras, setExtras] = useState<HomeExtras | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => {
      window.removeEventListener('scroll', load);
      import('@/features/home/components/home-extras')
        .then((m) => m.loadHomeExtras())
        .then((loaded) => live && setExtras(loaded))
        .catch(() => undefined); // extras only: the page works without them
    };
    let cancel: (() => void) | undefined;
    if (window.matchMedia('(min-width: 641px)').matches) cancel = whenIdle(load);
    else window.addEventListener('scroll', load, { passive: true });
    return () => {
      live = false;
      cancel?.();
      window.removeEventListener('scroll', load);
    };
  }, []);
  return extras;
}
