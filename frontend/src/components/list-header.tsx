import type { ReactNode } from 'react';

/** The heading of a dashboard list page (its id labels the list's card), with room for a search or an action. */
export function ListHeader({
  headingId,
  title,
  lead,
  children,
}: {
  headingId: string;
  title: string;
  lead: string;
  children?: ReactNode;
}) {
  return (
    <header className="list-header">
      <div>
        <h1 id={headingId}>{title}</h1>
        <p className="muted">{lead}</p>
      </div>
      {children}
    </header>
  );
}

/** The labelled search field beside a list's heading; the page debounces what is typed. */
export function ListSearch({
  id,
  label,
  labelClassName,
  placeholder,
  maxLength,
  value,
  onChange,
  testId,
}: {
  id: string;
  label: string;
  labelClassName: string;
  placeholder: string;
  maxLength: number;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <div className="list-search">
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="field-input"
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </div>
  );
}
