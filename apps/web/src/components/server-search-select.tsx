import { Select, type ComboboxItem, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

export type SearchOption = { value: string; label: string };

/**
 * A choice among records searched on the server (franchises, drivers: there may be thousands):
 * what is typed is asked for, a quarter of a second after the last key, once the list has first
 * opened; the box then shows the chosen record's name, which is not a search. `useOptions` answers
 * the options of a search (a query hook, called on every render).
 */
export function ServerSearchSelect({
  value,
  initialLabel = null,
  onChange,
  useOptions,
  searchingMessage,
  nothingFoundMessage,
  ...props
}: Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'filter'> & {
  value: string | null;
  /** The name of the record chosen when the picker opens. */
  initialLabel?: string | null;
  onChange: (value: string | null, option: ComboboxItem | null) => void;
  useOptions: (q: string, opened: boolean) => { data?: SearchOption[]; isFetching: boolean };
  /** Said in place of `nothingFoundMessage` while a search runs. */
  searchingMessage?: string;
}) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(initialLabel);
  const [opened, setOpened] = useState(false);
  const [q] = useDebouncedValue(search === chosen ? '' : search.trim(), 250);
  const found = useOptions(q, opened);
  const data = [...(found.data ?? [])];
  if (value && chosen && !data.some((option) => option.value === value))
    data.unshift({ value, label: chosen });
  return (
    <Select
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // The server searched already.
      filter={({ options }) => options}
      data={data}
      value={value}
      onChange={(id, option) => {
        onChange(id, option);
        setChosen(option?.label ?? null);
      }}
      onDropdownOpen={() => setOpened(true)}
      nothingFoundMessage={found.isFetching && searchingMessage ? searchingMessage : nothingFoundMessage}
      {...props}
    />
  );
}
