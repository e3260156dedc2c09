import type { ReactNode, Ref } from 'react';
import type { FieldProblem } from '../field-problems';
import { FieldError } from './error-text';

interface AuthFieldProps {
  /** the input's id; the problem line is `${id}-problem`, the hint `${id}-hint` */
  readonly id: string;
  readonly label: ReactNode;
  /** shown next to the label (e.g. 'Forgot password?'); the label then sits in a row with it */
  readonly labelAside?: ReactNode;
  readonly type: 'email' | 'password' | 'text';
  readonly autoComplete: string;
  readonly maxLength?: number;
  readonly value: string;
  onChange(value: string): void;
  readonly problem: FieldProblem | null;
  /** a standing hint under the input, read out with the problem */
  readonly hint?: ReactNode;
  readonly inputRef?: Ref<HTMLInputElement>;
  readonly testId: string;
}

/** One labelled input of the auth forms with its hint and its problem line (spec §8). */
export function AuthField({
  id,
  label,
  labelAside,
  type,
  autoComplete,
  maxLength,
  value,
  onChange,
  problem,
  hint,
  inputRef,
  testId,
}: AuthFieldProps) {
  const problemId = `${id}-problem`;
  const hintId = `${id}-hint`;
  const labelElement = <label htmlFor={id}>{label}</label>;
  return (
    <div className="auth-field">
      {labelAside === undefined ? (
        labelElement
      ) : (
        <div className="auth-label-row">
          {labelElement}
          {labelAside}
        </div>
      )}
      <input
        ref={inputRef}
        id={id}
        className="account-input"
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={hint === undefined ? problemId : `${hintId} ${problemId}`}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      {hint !== undefined && (
        <p id={hintId} className="auth-hint">
          {hint}
        </p>
      )}
      <FieldError id={problemId} problem={problem} />
    </div>
  );
}
