import { lazy, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { AccountList } from '../../components/account-list';
import { ExportButton } from '../../components/export-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { pagedRows } from '../../lib/paged-rows';
import { useSearch } from '../../lib/use-search';
import { useCityDealerList } from './api';
import { OnDemand } from '../../components/on-demand';

const CityDealerPopup = lazy(() =>
  import('./city-dealer-popup').then((m) => ({ default: m.CityDealerPopup })),
);

/** The spec's city dealer list (admins): newest first, searched and paged on the server. */
export function CityDealersScreen() {
  const { search, setSearch, q } = useSearch();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = useCityDealerList(q);
  const { rows: dealers, total, totalCapped } = pagedRows(list.data);
  // The popup shows the row as last loaded, so that an edit shows at once.
  const selected = dealers.find((dealer) => dealer.id === selectedId) ?? null;

  return (
    <Page title={m.dealersTitle()} actions={<ExportButton path="/city_dealer/export.csv" query={{ q }} />}>
      <SearchInput
        label={m.dealersSearchLabel()}
        placeholder={m.dealersSearchPlaceholder()}
        value={search}
        onChange={setSearch}
        width={380}
      />
      <AccountList
        list={list}
        accounts={dealers}
        total={total}
        totalCapped={totalCapped}
        noun={m.dealersNoun()}
        query={q}
        onOpen={(dealer) => setSelectedId(dealer.id)}
      />
      <OnDemand open={selected !== null}>
        <CityDealerPopup dealer={selected} onClose={() => setSelectedId(null)} />
      </OnDemand>
    </Page>
  );
}
