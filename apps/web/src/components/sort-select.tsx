import { NativeSelect } from '@mantine/core';
import type { SortOrder } from '@bmet/shared/schemas/sort';
import { m } from '@bmet/shared/paraglide/messages';
import classes from './sort-select.module.css';

/** One way a list can be sorted, named as people read it: 'Newest first', 'Name A–Z'. */
export type SortOption<F extends string> = { field: F; order: SortOrder; label: string };

const valueOf = (sort: { field: string; order: SortOrder }) => `${sort.field}:${sort.order}`;

/**
 * A list's "Sort" choice beside its search: for the sorts that are no column of the table, and on
 * a phone (where the table's headings give way to cards) for all of them. `phoneOnly` when every
 * sort of the list is a column's heading on a wider screen.
 */
export function SortSelect<F extends string>({
  options,
  sort,
  onChange,
  phoneOnly = false,
}: {
  options: SortOption<F>[];
  sort: { field: F; order: SortOrder };
  onChange: (field: F, order: SortOrder) => void;
  phoneOnly?: boolean;
}) {
  return (
    <NativeSelect
      label={m.sortLabel()}
      value={valueOf(sort)}
      onChange={(event) => {
        const chosen = options.find((option) => valueOf(option) === event.currentTarget.value);
        if (chosen) onChange(chosen.field, chosen.order);
      }}
      data={options.map((option) => ({ value: valueOf(option), label: option.label }))}
      w={{ base: '100%', xs: 200 }}
      className={phoneOnly ? classes.phoneOnly : undefined}
    />
  );
}
