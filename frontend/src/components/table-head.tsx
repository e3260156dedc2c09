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
