import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorTextOf } from '@/i18n/error-keys';

export interface ActionOptions {
  /**
   * How a failure reads; by default the API error's `code` in the user's language
   * (i18n/error-keys.ts), a generic text for anything else. Read at each failure.
   */
  readonly errorText?: (error: unknown) => string;
}

export interface RunOptions {
  /** Names what runs (`busyWith`), where a screen words its buttons by the action in flight. */
  readonly tag?: string;
  /**
   * After a failure, with the error and its text (also in `error`): put a field back, move focus,
   * or show the text elsewhere. Not after unmount.
   */
  readonly onError?: (error: unknown, text: string) => void;
}

export interface Action {
  /** An action is in flight: its buttons are disabled and it cannot be started again. */
  readonly busy: boolean;
  /** The `tag` of the action in flight ('run' when it has none), or null. */
  readonly busyWith: string | null;
  /** The last failure's text, cleared when the next action starts. */
  readonly error: string | null;
  /**
   * Runs `work` unless an action of this hook is still in flight (a double submit is dropped).
   * Never rejects: resolves true when the work succeeded and the screen is still mounted (so the
   * caller may go on), false when it failed, was dropped or the screen has gone.
   */
  run(work: () => Promise<unknown>, options?: RunOptions): Promise<boolean>;
  /** The screen's own refusal (a check before any call), or null to clear it. Stable. */
  setError(text: string | null): void;
}

/**
 * One user action of a screen (a submit, a toggle, a delete): busy while it runs, the failure
 * in the user's language, no second run while one is in flight, and no state set once the
 * screen has unmounted. The screen's data loads with `useLoad`; its changes go through this.
 */
export function useAction(options: ActionOptions = {}): Action {
  const { t } = useTranslation();
  const [busyWith, setBusyWith] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // refs, not state: a second click in the same tick must see the first, and so must a late answer
  const inFlight = useRef(false);
  const mounted = useRef(false);
  const latest = useRef({ t, errorText: options.errorText });
  latest.current = { t, errorText: options.errorText };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async (work: () => Promise<unknown>, runOptions: RunOptions = {}) => {
    if (inFlight.current) return false;
    inFlight.current = true;
    setBusyWith(runOptions.tag ?? 'run');
    setError(null);
    try {
      await work();
      return mounted.current;
    } catch (err) {
      if (mounted.current) {
        const { t: translate, errorText } = latest.current;
        const known = errorTextOf(err);
        const text = errorText ? errorText(err) : translate(known.key, known.params);
        setError(text);
        runOptions.onError?.(err, text);
      }
      return false;
    } finally {
      inFlight.current = false;
      if (mounted.current) setBusyWith(null);
    }
  }, []);

  return { busy: busyWith !== null, busyWith, error, run, setError };
}
