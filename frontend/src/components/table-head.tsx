import type { ReactNode } from 'react';

/** A table's header row: one column header (`scope="col"`) per entry, in order. */
export function TableHead({ columns }: { columns: readonly ReactNode[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a screen's header row is fixed and never reorders
          <th scope="col" key={index}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A table in its scrolling wrapper: optional caption, the header row, then the caller's rows. */
export function DataTable({
  wrapClassName,
  className,
  testId,
  caption,
  columns,
  children,
}: {
  wrapClassName: string;
  className: string;
  testId?: string;
  caption?: ReactNode;
  columns: readonly ReactNode[];
  children: ReactNode;
}) {
  return (
    <div className={wrapClassName}>
      <table className={className} data-testid={testId}>
        {caption}
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
