import { useId, useState, type FormEvent } from 'react';

/** A domain to add: the field and its button. */
export function AddDomainForm({
  label,
  button,
  busy,
  onAdd,
  testId,
}: {
  label: string;
  button: string;
  busy: boolean;
  onAdd: (domain: string) => void;
  testId: string;
}) {
  const id = useId();
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) onAdd(value);
  };
  return (
    <form className="domains-add" onSubmit={submit}>
      <label htmlFor={id} className="dash-label">
        {label}
      </label>
      <div className="domains-add-row">
        <input
          id={id}
          className="dash-input"
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="files.example.com"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          data-testid={`${testId}-input`}
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={busy || !value.trim()}
          data-testid={`${testId}-add`}
        >
          {button}
        </button>
      </div>
    </form>
  );
}
