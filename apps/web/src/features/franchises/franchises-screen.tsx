import { lazy, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { AccountList } from '../../components/account-list';
import { ExportButton } from '../../components/export-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { pagedRows } from '../../lib/paged-rows';
import { useSearch } from '../../lib/use-search';
import { useFranchiseList } from './api';
import { OnDemand } from '../../components/on-demand';

const FranchisePopup = lazy(() => import('./franchise-popup').then((m) => ({ default: m.FranchisePopup })));

/**
 * The spec's franchise list (admins: all; a city dealer: its own): newest first, searched and
 * paged on the server. The first row carries the spec's 'New Dealer: {name}' notice.
 */
export function FranchisesScreen() {
  const { search, setSearch, q } = useSearch();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = useFranchiseList(q);
  const { rows: franchises, total, totalCapped } = pagedRows(list.data);
  // The popup shows the row as last loaded, so that an edit shows at once.
  const selected = franchises.find((franchise) => franchise.id === selectedId) ?? null;

  return (
    <Page title={m.franchisesTitle()} actions={<ExportButton path="/franchise/export.csv" query={{ q }} />}>
      <SearchInput
        label={m.franchisesSearchLabel()}
        placeholder={m.franchisesSearchPlaceholder()}
        value={search}
        onChange={setSearch}
        width={380}
      />
      <AccountList
        list={list}
        accounts={franchises}
        total={total}
        totalCapped={totalCapped}
        noun={m.franchisesNoun()}
        query={q}
        onOpen={(franchise) => setSelectedId(franchise.id)}
      />
      <OnDemand open={selected !== null}>
        <FranchisePopup franchise={selected} onClose={() => setSelectedId(null)} />
      </OnDemand>
    </Page>
  );
}
