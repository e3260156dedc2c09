import { useCallback } from 'react';

const KEYFRAMES: Keyframe[] = [0, -8, 8, -6, 6, -3, 0].map((x) => ({ transform: `translateX(${x}px)` }));

/**
 * Shakes a box (spec §5, §8: invalid login input, a taken email, a wrong code) and moves focus
 * to the field inside it that needs attention. Reduced motion: focus only. `data-shaken`
 * counts the shakes so tests can see one happened.
 */
export function useShake(): (element: HTMLElement | null, focusTarget?: HTMLElement | null) => void {
  return useCallback((element: HTMLElement | null, focusTarget?: HTMLElement | null) => {
    if (!element) return;
    const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (!still && typeof element.animate === 'function')
      element.animate(KEYFRAMES, { duration: 420, easing: 'ease-in-out' });
    element.dataset.shaken = String(Number(element.dataset.shaken ?? '0') + 1);
    const target =
      focusTarget ??
      (element.matches('input, textarea, button, select')
        ? element
        : element.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, select'));
    target?.focus();
  }, []);
}
