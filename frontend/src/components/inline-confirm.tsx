import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * Whether an inline confirmation is open, and the focus that goes back to the button that asked
 * when it closes (Keep, or a failed action). Give `triggerRef` to that button; `ask` opens, `close`
 * closes. Focus returns only after the question was asked once, never on the first render.
 */
export function useInlineConfirm<E extends HTMLElement = HTMLButtonElement>() {
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<E>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (open) asked.current = true;
    else if (asked.current) triggerRef.current?.focus();
  }, [open]);
  const ask = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  return { open, ask, close, triggerRef };
}

export interface InlineConfirmProps {
  /** The question; it names the group. */
  readonly question: ReactNode;
  readonly confirmLabel: ReactNode;
  readonly cancelLabel: ReactNode;
  onConfirm(): void;
  onCancel(): void;
  /** An action under way: the confirm button is disabled (and Cancel too with `cancelWhileBusy: false`). */
  readonly busy?: boolean;
  readonly cancelWhileBusy?: boolean;
  readonly className: string;
  /** Small buttons (`btn-sm`), as in a row of small actions. */
  readonly small?: boolean;
  /** Default `btn btn-primary` (with `btn-sm` when small). */
  readonly confirmClassName?: string;
  /** Default `btn btn-ghost` (with `btn-sm` when small). */
  readonly cancelClassName?: string;
  readonly testId?: string;
  readonly confirmTestId?: string;
  readonly cancelTestId?: string;
}

/**
 * An inline "Remove? Remove / Keep" question in place of the actions that asked it. Focus moves to
 * the cancel answer when it appears (the safe one); `useInlineConfirm` brings it back afterwards.
 */
export function InlineConfirm(props: InlineConfirmProps) {
  const { busy = false } = props;
  const size = props.small ? ' btn-sm' : '';
  const questionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className={props.className} role="group" aria-labelledby={questionId} data-testid={props.testId}>
      <p id={questionId}>{props.question}</p>
      <button
        type="button"
        className={props.confirmClassName ?? `btn btn-primary${size}`}
        disabled={busy}
        onClick={props.onConfirm}
        data-testid={props.confirmTestId}
      >
        {props.confirmLabel}
      </button>
      <button
        type="button"
        className={props.cancelClassName ?? `btn btn-ghost${size}`}
        ref={cancelRef}
        disabled={busy && props.cancelWhileBusy === false}
        onClick={props.onCancel}
        data-testid={props.cancelTestId}
      >
        {props.cancelLabel}
      </button>
    </div>
  );
}
