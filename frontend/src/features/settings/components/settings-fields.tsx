import type { ReactNode } from 'react';
import { FieldNotes, fieldNotesIds } from '@/components/field-notes';
import type { SettingsField as FieldName } from '../settings-form';
import type { SettingsFormState } from '../use-settings-form';

export interface ControlProps {
  readonly id: string;
  readonly describedBy: string | undefined;
  readonly invalid: boolean;
}

/** A labelled control with its hint and problem, both tied to it by aria-describedby. */
export function SettingsField({
  state,
  name,
  label,
  hint,
  children,
}: {
  state: SettingsFormState;
  name: FieldName;
  label: string;
  hint?: string;
  children: (p: ControlProps) => ReactNode;
}) {
  const id = `${state.ids}-${name}`;
  const problem = state.problemText(name);
  const describedBy = fieldNotesIds(id, { hint, problem });
  return (
    <div className="dash-field">
      <label htmlFor={id} className="dash-label">
        {label}
      </label>
      {children({ id, describedBy, invalid: problem !== null })}
      <FieldNotes id={id} hint={hint} problem={problem} />
    </div>
  );
}

/** A checkbox setting with its optional hint. */
export function SettingsCheck({
  state,
  name,
  label,
  hint,
}: {
  state: SettingsFormState;
  name: 'downloadEmails' | 'expiryReminders' | 'uploadEmails';
  label: string;
  hint?: string;
}) {
  const { ids, form, set } = state;
  return (
    <div className="dash-field">
      <div className="settings-check">
        <input
          id={`${ids}-${name}`}
          type="checkbox"
          checked={form[name]}
          aria-describedby={hint ? `${ids}-${name}-hint` : undefined}
          onChange={(e) => set(name, e.currentTarget.checked)}
          data-testid={`setting-${name}`}
        />
        <label htmlFor={`${ids}-${name}`}>{label}</label>
      </div>
      {hint && (
        <p id={`${ids}-${name}-hint`} className="dash-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A message setting: a textarea of at most `maxLength` characters. */
export function SettingsTextArea({
  state,
  name,
  label,
  hint,
  maxLength,
}: {
  state: SettingsFormState;
  name: 'message' | 'requestMessage';
  label: string;
  hint?: string;
  maxLength: number;
}) {
  return (
    <SettingsField state={state} name={name} label={label} {...(hint ? { hint } : {})}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          className="dash-input dash-textarea"
          value={state.form[name]}
          maxLength={maxLength}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => state.set(name, e.currentTarget.value)}
          data-testid={`setting-${name}`}
        />
      )}
    </SettingsField>
  );
}

/** A number setting: whole numbers (step 1) or decimal megabytes (step any). */
export function SettingsNumber({
  state,
  name,
  label,
  hint,
  step,
}: {
  state: SettingsFormState;
  name: 'dueDays' | 'maxMb' | 'maxFiles';
  label: string;
  hint: string;
  step: string;
}) {
  return (
    <SettingsField state={state} name={name} label={label} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="dash-input"
          type="number"
          inputMode={step === 'any' ? 'decimal' : 'numeric'}
          min={1}
          step={step}
          value={state.form[name]}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => state.set(name, e.currentTarget.value)}
          data-testid={`setting-${name}`}
        />
      )}
    </SettingsField>
  );
}
