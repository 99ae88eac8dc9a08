import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { isValidElement, useDeferredValue, type ReactNode } from 'react';
import type { SortOrder } from '@bmet/shared/schemas/sort';
import classes from './list-table.module.css';

export { classes as listTableClasses };

/** A column sorted by the field `sort` of the list's rows when its header is pressed. */
export type SortableColumn<F extends string> = { label: string; sort: F };

/** A column of things to do (its cells marked `screenOnly` too): left off paper. */
export type ScreenOnlyColumn = { label: string; screenOnly: true };

/** A column heading: a plain one (text or an element), a sortable one, or one for the screen only. */
export type ListColumn<F extends string = string> = ReactNode | SortableColumn<F> | ScreenOnlyColumn;

/** How the list is sorted, and what a header press asks for (the same field again turns it round). */
export type ListTableSort<F extends string> = {
  field: F;
  order: SortOrder;
  onSort: (field: F) => void;
};

const isPlainObject = (column: unknown): column is Record<string, unknown> =>
  typeof column === 'object' && column !== null && !isValidElement(column);

function isSortable<F extends string>(column: ListColumn<F>): column is SortableColumn<F> {
  return isPlainObject(column) && 'sort' in column && 'label' in column;
}

function isScreenOnly(column: ListColumn): column is ScreenOnlyColumn {
  return isPlainObject(column) && 'screenOnly' in column && column.screenOnly === true;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/** A sortable column's heading: a button with the column's name and the arrow of its order. */
function SortHeader<F extends string>({
  column,
  sorting,
}: {
  column: SortableColumn<F>;
  sorting: ListTableSort<F> | undefined;
}) {
  const order = sorting && sorting.field === column.sort ? sorting.order : null;
  const Arrow = order === null ? IconArrowsSort : order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <th
      role="columnheader"
      scope="col"
      aria-sort={order === null ? 'none' : ARIA_SORT[order]}
      data-sorted={order !== null || undefined}
    >
      <button type="button" className={classes.sortButton} onClick={() => sorting?.onSort(column.sort)}>
        {column.label}
        <Arrow size={14} aria-hidden className={classes.sortArrow} />
      </button>
    </th>
  );
}

/**
 * A list screen's striped table under its column headings; on a phone each row is a card. Rows
 * are plain `<tr>` and cells `<Cell>`, which carry their column's name for the card layout.
 * Columns given as `{ label, sort }` are sorted by pressing their heading, as `sorting` says.
 */
export function ListTable<F extends string = string>({
  columns,
  label,
  sorting,
  children,
}: {
  columns: ListColumn<F>[];
  label?: string;
  sorting?: ListTableSort<F>;
  children: ReactNode;
}) {
  // The rows are a deferred value: a page that arrives shows its frame at once, and its rows are
  // rendered in the background in slices that leave the main thread to the browser every few
  // milliseconds (50 rows in one go block a phone's CPU for 100 ms and more).
  const rows = useDeferredValue(children, null);
  return (
    <div className={classes.frame}>
      {/* Explicit roles: a table laid out as cards keeps its table semantics for screen readers. */}
      <table className={classes.table} aria-label={label} role="table">
        <thead>
          <tr role="row">
            {columns.map((column, index) =>
              // The columns are fixed for a table's life, so their places are stable keys.
              isSortable(column) ? (
                <SortHeader key={index} column={column} sorting={sorting} />
              ) : isScreenOnly(column) ? (
                <th key={index} role="columnheader" scope="col" data-print="hide">
                  {column.label}
                </th>
              ) : (
                <th key={index} role="columnheader" scope="col">
                  {column}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </div>
  );
}

/**
 * A cell under the column named `label` (shown above the value on a phone; '' for none);
 * `screenOnly` under a column of things to do, left off paper.
 */
export function Cell({
  label,
  screenOnly,
  children,
}: {
  label: string;
  screenOnly?: boolean;
  children?: ReactNode;
}) {
  return (
    <td role="cell" data-label={label} data-print={screenOnly ? 'hide' : undefined}>
      {children}
    </td>
  );
}
