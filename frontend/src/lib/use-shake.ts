import { useCallback } from 'react';

const KEYFRAMES: Keyframe[] = [0, -8, 8, -6, 6, -3, 0].map((x) => ({ transform: `translateX(${x}px)` }));

/**
 * Shakes an element (spec §5, §8: the offending field, a wrong code) and moves focus into it,
 * so keyboard and screen-reader users land where the problem is. Reduced motion: focus only.
 * The Web Animations API restarts cleanly on every call, which a CSS class would not.
 */
export function useShake(): (element: HTMLElement | null) => void {
  return useCallback((element: HTMLElement | null) => {
    if (!element) return;
    const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (!still && typeof element.animate === 'function')
      element.animate(KEYFRAMES, { duration: 420, easing: 'ease-in-out' });
    element.dataset.shaken = String(Number(element.dataset.shaken ?? '0') + 1);
    const target = element.matches('input, textarea, button, select, [tabindex]')
      ? element
      : element.querySelector<HTMLElement>(
          'input:not([type="hidden"]):not([hidden]), textarea, button:not([disabled]), [tabindex]:not([tabindex="-1"])',
        );
    target?.focus({ preventScroll: false });
  }, []);
}
