import { GB, MB } from '../../../../functions/domain/units';

/**
 * Spec §2 and §9: the home page's marketing notification toasts "with sample geo
 * text (5.8 s, cycling every 2 s)". Read as: each toast stays 5.8 s, and the next one comes 2 s
 * after the previous one left (docs/decisions/, "Example toasts"). They are examples, not
 * real activity, and say so.
 */
export const EXAMPLE_TOAST_VISIBLE_MS = 5800;
export const EXAMPLE_TOAST_GAP_MS = 2000;
/** sessionStorage: the visitor hid the examples for this visit */
export const EXAMPLE_TOASTS_HIDDEN_KEY = 'sendbridge.exampleToasts';

export interface ExampleActivity {
  readonly kind: 'sent' | 'downloaded';
  /** ISO 3166 alpha-2 countries, named in the UI language by Intl.DisplayNames */
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
}

/** Sample geo texts: made up, and shown with an "Example" label. */
export const EXAMPLE_ACTIVITY: readonly ExampleActivity[] = [
  { kind: 'sent', from: 'DE', to: 'CN', bytes: 2.4 * GB },
  { kind: 'downloaded', from: 'US', to: 'JP', bytes: 850 * MB },
  { kind: 'sent', from: 'AE', to: 'IN', bytes: 12 * GB },
  { kind: 'downloaded', from: 'HK', to: 'FR', bytes: 640 * MB },
  { kind: 'sent', from: 'KR', to: 'IT', bytes: 5.1 * GB },
  { kind: 'downloaded', from: 'ES', to: 'BR', bytes: 1.3 * GB },
];

export interface ToastConditions {
  readonly reducedMotion: boolean;
  readonly signedIn: boolean;
  readonly hidden: boolean;
}

/** Off for signed-in users, under prefers-reduced-motion, and once hidden by the visitor. */
export function showExampleToasts({ reducedMotion, signedIn, hidden }: ToastConditions): boolean {
  return !reducedMotion && !signedIn && !hidden;
}

/** What is on screen `elapsedMs` after the cycle started: the toast's index, or null in a gap. */
export function toastAt(elapsedMs: number): number | null {
  const period = EXAMPLE_TOAST_GAP_MS + EXAMPLE_TOAST_VISIBLE_MS;
  const step = Math.floor(elapsedMs / period);
  const within = elapsedMs - step * period;
  return within < EXAMPLE_TOAST_GAP_MS ? null : step % EXAMPLE_ACTIVITY.length;
}
