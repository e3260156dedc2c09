import { useCallback, useEffect, useRef, useState } from 'react';
import { ERROR_POPUP_MS, TOAST_MS, WARNING_TOAST_MS } from '@domain/ui-timings';

export type ToastKind = 'info' | 'warning' | 'error';

/** Spec §9: notification toasts 15.5 s, warnings 8.5 s; error popups 8 s. */
export function toastDurationMs(kind: ToastKind): number {
  if (kind === 'warning') return WARNING_TOAST_MS;
  if (kind === 'error') return ERROR_POPUP_MS;
  return TOAST_MS;
}

/** A toast's call to action: a router path inside the app, or an external href (mailto:). */
export type ToastAction =
  | { readonly label: string; readonly to: string }
  | { readonly label: string; readonly href: string };

export interface ToastInput {
  readonly kind: ToastKind;
  readonly title: string;
  readonly body?: string;
  readonly action?: ToastAction;
}

export interface Toast extends ToastInput {
  readonly id: number;
}

/** More than this and the oldest goes: a burst (many removed files) must not cover the page. */
const MAX_TOASTS = 4;

export interface ToastsApi {
  readonly toasts: readonly Toast[];
  push(toast: ToastInput): void;
  dismiss(id: number): void;
}

/** Toasts that leave by themselves after the spec's time for their kind (§9). */
export function useToasts(): ToastsApi {
  const [toasts, setToasts] = useState<readonly Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setToasts((list) => list.filter((t) => t.id !== id));
  }, []);

  const push = useCallback(
    (toast: ToastInput) => {
      const id = nextId.current++;
      setToasts((list) => [...list, { ...toast, id }].slice(-MAX_TOASTS));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), toastDurationMs(toast.kind)),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  return { toasts, push, dismiss };
}
