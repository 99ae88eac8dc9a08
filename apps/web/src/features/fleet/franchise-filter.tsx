import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { useFranchiseOptions } from '../../lib/franchise-options';

/** The franchise filter: franchises searched on the server (there may be thousands). */
export function FranchiseFilter({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [opened, setOpened] = useState(false);
  // The box shows the chosen franchise's name; that is not a search.
  const [q] = useDebouncedValue(search === chosen ? '' : search.trim(), 250);
  const options = useFranchiseOptions(q, opened);
  const data = (options.data ?? []).map((franchise) => ({ value: franchise.id, label: franchise.name }));
  if (value && chosen && !data.some((option) => option.value === value))
    data.unshift({ value, label: chosen });
  return (
    <Select
      label={m.fleetFilterFranchise()}
      placeholder={m.fleetFranchiseSearch()}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      data={data}
      value={value}
      onChange={(id, option) => {
        onChange(id);
        setChosen(option?.label ?? null);
      }}
      onDropdownOpen={() => setOpened(true)}
      nothingFoundMessage={options.isFetching ? m.fleetSearchSearching() : m.fleetFranchiseNone()}
      w={{ base: '100%', sm: 220 }}
    />
  );
}
