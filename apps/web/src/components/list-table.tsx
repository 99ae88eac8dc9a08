import type { ReactNode } from 'react';
import classes from './list-table.module.css';

export { classes as listTableClasses };

/**
 * A list screen's striped table under its column headings; on a phone each row is a card. Rows
 * are plain `<tr>` and cells `<Cell>`, which carry their column's name for the card layout.
 */
export function ListTable({
  columns,
  label,
  children,
}: {
  columns: ReactNode[];
  label?: string;
  children: ReactNode;
}) {
  return (
    // Explicit roles: a table laid out as cards keeps its table semantics for screen readers.
    <table className={classes.table} aria-label={label} role="table">
      <thead>
        <tr role="row">
          {columns.map((column, index) => (
            // The columns are fixed for a table's life, so their places are stable keys.
            <th key={index} role="columnheader" scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A cell under the column named `label` (shown above the value on a phone; '' for none). */
export function Cell({ label, children }: { label: string; children?: ReactNode }) {
  return (
    <td role="cell" data-label={label}>
      {children}
    </td>
  );
}
