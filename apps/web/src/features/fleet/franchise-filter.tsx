import { m } from '@bmet/shared/paraglide/messages';
import { ServerSearchSelect } from '../../components/server-search-select';
import { useFranchiseChoices } from '../../lib/franchise-options';

/** The franchise filter: franchises searched on the server (there may be thousands). */
export function FranchiseFilter({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  return (
    <ServerSearchSelect
      label={m.fleetFilterFranchise()}
      placeholder={m.fleetFranchiseSearch()}
      value={value}
      onChange={(id) => onChange(id)}
      useOptions={useFranchiseChoices}
      searchingMessage={m.fleetSearchSearching()}
      nothingFoundMessage={m.fleetFranchiseNone()}
      w={{ base: '100%', sm: 220 }}
    />
  );
}
