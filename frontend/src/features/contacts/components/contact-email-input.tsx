import type { Ref } from 'react';

export interface ContactEmailInputProps {
  readonly id: string;
  readonly value: string;
  onChange(value: string): void;
  /** the refusal shown under the form, or null */
  readonly problem: string | null;
  /** the id of the element that shows it */
  readonly problemId: string;
  readonly testId: string;
  readonly inputRef?: Ref<HTMLInputElement>;
  /** the add form's address is a new one: no suggestions from the browser */
  readonly noAutoComplete?: boolean;
}

/** A contact's address: required, marked invalid and described by the form's refusal. */
export function ContactEmailInput({
  id,
  value,
  onChange,
  problem,
  problemId,
  testId,
  inputRef,
  noAutoComplete,
}: ContactEmailInputProps) {
  return (
    <input
      ref={inputRef}
      id={id}
      type="email"
      className="field-input"
      {...(noAutoComplete ? { autoComplete: 'off' } : {})}
      value={value}
      required
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem ? problemId : undefined}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    />
  );
}
