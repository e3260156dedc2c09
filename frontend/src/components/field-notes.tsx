import type { ReactNode } from 'react';

/** The ids a field's notes carry, for its control's aria-describedby (undefined when it has none). */
export function fieldNotesIds(id: string, notes: { hint?: unknown; problem?: unknown }): string | undefined {
  return [notes.hint ? `${id}-hint` : '', notes.problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
}

/** A dashboard form field's hint and problem, each a paragraph its control's aria-describedby names. */
export function FieldNotes({ id, hint, problem }: { id: string; hint?: ReactNode; problem?: ReactNode }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="dash-hint">
          {hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-problem`} className="dash-error">
          {problem}
        </p>
      )}
    </>
  );
}
