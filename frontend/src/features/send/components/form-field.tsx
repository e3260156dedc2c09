import { useId, type ReactNode, type RefObject } from 'react';

interface FormFieldProps {
  readonly label: string;
  readonly fieldRef: RefObject<HTMLDivElement | null>;
  readonly problem?: string;
  children(inputId: string, describedBy: string): ReactNode;
}

/** One labelled quick-send field with its problem line; the input comes from `children`. */
export function FormField({ label, fieldRef, problem, children }: FormFieldProps) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <div ref={fieldRef} className={`qs-field${problem ? ' qs-field-invalid' : ''}`}>
      <label htmlFor={id} className="qs-label">
        {label}
      </label>
      {children(id, problem ? problemId : '')}
      {problem && (
        <p id={problemId} className="qs-field-error">
          {problem}
        </p>
      )}
    </div>
  );
}
