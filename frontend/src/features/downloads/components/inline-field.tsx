import { useId, type ReactNode, type Ref } from 'react';

interface InlineFieldProps {
  readonly label: ReactNode;
  readonly inputRef: Ref<HTMLInputElement>;
  readonly type: 'email' | 'password' | 'text';
  readonly inputMode?: 'email' | 'numeric';
  readonly maxLength?: number;
  readonly autoComplete: string;
  /** the field takes the focus when it appears */
  readonly autoFocus?: boolean;
  readonly value: string;
  onChange(value: string): void;
  /** the field shakes once, then calls onShakeEnd */
  readonly shaking: boolean;
  onShakeEnd(): void;
  readonly error: string | null;
  readonly busy: boolean;
  readonly submitText: ReactNode;
  readonly inputTestId: string;
  readonly submitTestId: string;
  readonly errorTestId?: string;
}

/**
 * The download page's one-field forms (password, extension request, a recipient's address and code): label, the input and its
 * submit button on one row, the problem under them. The caller owns the <form>.
 */
export function InlineField({
  label,
  inputRef,
  type,
  inputMode,
  maxLength,
  autoComplete,
  autoFocus,
  value,
  onChange,
  shaking,
  onShakeEnd,
  error,
  busy,
  submitText,
  inputTestId,
  submitTestId,
  errorTestId,
}: InlineFieldProps) {
  const inputId = useId();
  const errorId = useId();
  return (
    <>
      <label className="download-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="download-form-row">
        <input
          ref={inputRef}
          id={inputId}
          className={`download-input${shaking ? ' download-shake' : ''}${error ? ' invalid' : ''}`}
          type={type}
          inputMode={inputMode}
          maxLength={maxLength}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onAnimationEnd={onShakeEnd}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          data-testid={inputTestId}
        />
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid={submitTestId}>
          {busy && <span className="download-spinner" aria-hidden="true" />}
          {submitText}
        </button>
      </div>
      {error && (
        <p className="download-field-error" id={errorId} role="alert" data-testid={errorTestId}>
          {error}
        </p>
      )}
    </>
  );
}
